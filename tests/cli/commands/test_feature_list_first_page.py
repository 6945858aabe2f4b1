"""`feature list`'s first page, searched before the client is made (issue 26): a listing that
fits in it is answered from it alone (tests/cli/test_start_imports.py checks that no HTTP
library is imported then); a longer one hands it on, and every page is still asked once; a
server that does not answer is waited for once; a token_command runs once; an error is the
client's, said as before."""

from __future__ import annotations

import socket
import stat
import threading
from collections.abc import Iterator

import pytest
from gateway import Gateway

from flagtui.api.feature_query import SEARCH_PATH
from flagtui.cli.commands import feature_list


def test_a_longer_listing_asks_each_page_once_and_lists_every_flag(run, sandbox, monkeypatch):
    everything = [f["name"] for f in run("feature", "list", "-o", "json").json]
    monkeypatch.setattr(feature_list, "FEATURE_PAGE", 5)  # the demo's flags: several pages
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run("feature", "list", "-o", "json")
    assert result.code == 0, result.err
    assert [f["name"] for f in result.json] == everything
    asked = [int(r.query["offset"][0]) for r in gateway.received if r.path == SEARCH_PATH]
    assert asked == list(range(0, len(everything), 5))
    assert len(everything) > 10  # more than two pages: the hand-over was tried


def test_the_first_page_is_the_clients_own_search(run, sandbox, monkeypatch):
    """The server sees the same request either way: path, query and headers. A proxy in the
    environment leaves the search to the client (NO_PROXY keeps the client direct)."""
    argv = ("feature", "list", "--project", "default", "--type", "release", "-o", "json")
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        early = run(*argv)
        monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        by_client = run(*argv)
    assert (early.code, by_client.code) == (0, 0), (early.err, by_client.err)
    assert early.json == by_client.json and early.json
    paths = [r.path for r in gateway.received]
    assert paths == [SEARCH_PATH, "/api/admin/ui-config", SEARCH_PATH]  # alone, then the client's
    first, own = (r for r in gateway.received if r.path == SEARCH_PATH)
    kept = ("authorization", "user-agent", "host")
    assert (first.query, {k: first.headers[k] for k in kept}) == (
        own.query,
        {k: own.headers[k] for k in kept},
    )


def test_a_refused_token_is_said_as_the_client_says_it(run, monkeypatch):
    """The early search's 401 is left to the client, which reads ui-config first, as it did."""
    monkeypatch.setenv("UNLEASH_API_TOKEN", "*:*.not-a-token")
    result = run("feature", "list", "--project", "default")
    assert result.code == 3, result.err
    said = result.error  # piped: JSON
    assert (said["path"], said["status"], said["kind"]) == (
        "/api/admin/ui-config",
        401,
        "authentication",
    )


@pytest.fixture
def silent_server() -> Iterator[tuple[str, list[socket.socket]]]:
    """A server that takes connections and never answers: the connections it took."""
    listener = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []

    def take() -> None:
        while True:
            try:
                taken.append(listener.accept()[0])
            except OSError:  # closed: the test is over
                return

    threading.Thread(target=take, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}", taken
    listener.close()
    for connection in taken:
        connection.close()


def test_a_server_that_never_answers_is_waited_for_once(run, cli_env, monkeypatch, silent_server):
    """Fails without the early search's own timeout: its wait ran out, then the client's."""
    url, taken = silent_server
    (cli_env / "config.toml").write_text(f'[profiles.silent]\nurl = "{url}"\ntimeout = 1\n')
    monkeypatch.delenv("UNLEASH_URL")
    result = run("feature", "list", "-P", "silent")
    assert result.code == 6, result.err
    said = result.error  # piped: JSON
    assert (said["kind"], said["message"]) == ("timeout", "no complete answer within 1 s")
    assert len(taken) == 1


def test_a_token_command_runs_once(run, cli_env, sandbox, monkeypatch):
    """A token_command may ask for a passphrase: the listing leaves it to the client, which
    runs it once. Fails without that: the early search ran it, then the client for the next
    pages."""
    runs = cli_env / "runs"
    command = cli_env / "token.sh"
    # The token from the environment: a file of the test's holding it would fail the secret scan.
    command.write_text(f"#!/bin/sh\necho run >> '{runs}'\necho \"$TOKEN_FOR_THE_COMMAND\"\n")
    command.chmod(command.stat().st_mode | stat.S_IXUSR)
    profile = f'[profiles.cmd]\nurl = "{sandbox.url}"\ntoken_command = "{command}"\n'
    (cli_env / "config.toml").write_text(profile)
    monkeypatch.delenv("UNLEASH_URL")
    monkeypatch.delenv("UNLEASH_API_TOKEN")
    monkeypatch.setenv("TOKEN_FOR_THE_COMMAND", sandbox.admin_token)
    monkeypatch.setattr(feature_list, "FEATURE_PAGE", 5)  # pages the client reads too
    result = run("feature", "list", "-P", "cmd", "-o", "json")
    assert result.code == 0, result.err
    assert len(result.json) > 5
    assert runs.read_text().splitlines() == ["run"]
