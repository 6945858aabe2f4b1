"""What `feature list` sends, all through the client: its first page searched while the client
connects (both in flight at once), every page asked once and no search sent twice; a server
that drips its answer is given up at the profile's timeout, as for every other command; a
token_command runs once; an error is said as the client says it."""

from __future__ import annotations

import json
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest
from gateway import Gateway

from flagtui.api.feature_query import SEARCH_PATH
from flagtui.cli.commands import feature_list

from ..processes import command_env
from ..stand_in import UI_CONFIG, JsonAnswers, _QuietServer

ONE_FLAG = json.dumps(
    {"features": [{"name": "only-flag", "project": "default", "type": "release"}], "total": 1}
).encode()


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
    assert len(everything) > 10  # more than two pages


class _Server:
    """A loopback stand-in for Unleash: `handler` answers; `paths` lists what it was asked."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.paths: list[str] = []
        self._server = _QuietServer(("127.0.0.1", 0), type("H", (handler,), {"seen": self}))
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class _BothAtOnce(JsonAnswers):
    """Neither ui-config nor the search is answered before the other has arrived: a listing
    that sends them one after the other gets a 500 once the barrier gives up."""

    seen: _Server
    both: threading.Barrier

    def do_GET(self) -> None:
        path = self.path.partition("?")[0]
        self.seen.paths.append(path)
        try:
            type(self).both.wait()
        except threading.BrokenBarrierError:
            self._answer(500, b'{"message": "asked one after the other"}')
            return
        self._answer(200, UI_CONFIG if path == "/api/admin/ui-config" else ONE_FLAG)


def test_the_first_page_is_searched_while_the_client_connects(run, monkeypatch):
    """One round trip for a listing of one page, through the client. Fails on the code before:
    the first page was searched alone, with the standard library, and ui-config never sent."""
    both = threading.Barrier(2, timeout=30)  # a bound for a failing run, not a wait
    server = _Server(type("Both", (_BothAtOnce,), {"both": both}))
    try:
        monkeypatch.setenv("UNLEASH_URL", server.url)
        result = run("feature", "list", "--project", "default", "-o", "json")
    finally:
        server.close()
    assert result.code == 0, result.err
    assert [f["name"] for f in result.json] == ["only-flag"]
    assert sorted(server.paths) == sorted(["/api/admin/ui-config", SEARCH_PATH])


class _SearchFails(JsonAnswers):
    seen: _Server

    def do_GET(self) -> None:
        path = self.path.partition("?")[0]
        self.seen.paths.append(path)
        if path == "/api/admin/ui-config":
            self._answer(200, UI_CONFIG)
        else:
            self._answer(500, b'{"name": "InternalError", "message": "boom"}')


def test_a_failed_search_is_sent_once(run, monkeypatch):
    """Fails on the code before: the first page's search failed without the client, and the
    client sent it again."""
    server = _Server(_SearchFails)
    try:
        monkeypatch.setenv("UNLEASH_URL", server.url)
        result = run("feature", "list", "--project", "default")
    finally:
        server.close()
    assert result.code == 6, result.err
    assert (result.error["kind"], result.error["path"]) == ("server-error", SEARCH_PATH)
    assert server.paths.count(SEARCH_PATH) == 1


def test_a_refused_token_is_said_as_the_client_says_it(run, monkeypatch):
    """ui-config's 401, as every command that connects says it."""
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
def dripping_server() -> Iterator[str]:
    """A server that reads each request, then answers one byte a second, never finishing."""
    listener = socket.create_server(("127.0.0.1", 0))
    over = threading.Event()

    def drip(connection: socket.socket) -> None:
        with connection:
            connection.recv(65536)
            head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: "
            sent = 0
            while not over.is_set():
                try:
                    connection.sendall(head[sent : sent + 1] or b"x")
                except OSError:  # the client gave up
                    return
                sent += 1
                over.wait(1)

    def take() -> None:
        while True:
            try:
                connection = listener.accept()[0]
            except OSError:  # closed: the test is over
                return
            threading.Thread(target=drip, args=(connection,), daemon=True).start()

    threading.Thread(target=take, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    over.set()
    listener.close()


def test_a_dripping_answer_is_given_up_at_the_profiles_timeout(cli_env, sandbox, dripping_server):
    """The profile's timeout is the whole answer's deadline: exit 6, said once. Fails on the code
    before: the first page's search (the standard library's, whose timeout is per read) waited
    as long as the bytes kept coming (here: until this test's own bound, 60 s)."""
    (cli_env / "config.toml").write_text(
        f'[profiles.drip]\nurl = "{dripping_server}"\ntimeout = 5\n'
    )
    env = command_env(cli_env, sandbox)
    del env["UNLEASH_URL"]  # the profile's server, the token from the environment
    done = subprocess.run(
        [sys.executable, "-m", "flagtui", "feature", "list", "--project", "P", "-P", "drip"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 6, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    said = json.loads(lines[0])["error"]  # piped: JSON
    assert (said["kind"], said["message"]) == ("timeout", "no complete answer within 5 s")


def test_a_token_command_runs_once(run, cli_env, sandbox, monkeypatch):
    """A token_command may ask for a passphrase: it runs once, for the client of every page."""
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
    monkeypatch.setattr(feature_list, "FEATURE_PAGE", 5)  # several pages
    result = run("feature", "list", "-P", "cmd", "-o", "json")
    assert result.code == 0, result.err
    assert len(result.json) > 5
    assert runs.read_text().splitlines() == ["run"]
