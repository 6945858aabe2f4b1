"""What differs on a terminal, in a real subprocess: a table by default (JSON when piped), and
destructive commands asking for the typed name."""

from __future__ import annotations

import json
import os
import subprocess

import httpx
import pytest

from testkit.pty_term import Term

from .processes import FLAGTUI, command_env, finish


def test_a_terminal_gets_a_table_and_a_pipe_gets_json(cli_env, sandbox):
    env = command_env(cli_env, sandbox)
    piped = subprocess.run([*FLAGTUI, "type", "list"], env=env, capture_output=True, timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)[0]["id"] == "release"

    term = Term([*FLAGTUI, "type", "list"], env, cols=120)
    assert finish(term) == 0
    assert term.text().splitlines()[0].split() == ["id", "name", "lifetimeDays"]
    assert any(
        line.split()[:3] == ["release", "Release", "40"] for line in term.text().splitlines()
    )


def test_on_a_terminal_a_destructive_command_asks_for_the_typed_name(cli_env, sandbox):
    env = command_env(cli_env, sandbox)
    term = Term([*FLAGTUI, "env", "remove", "default", "development"], env, cols=120)
    term.wait_for(lambda t: t.has("Type 'development' to confirm"), what="the question")
    term.send("develop\r")
    assert finish(term) == 2
    assert term.has("not confirmed (expected 'development'); nothing was sent")
    assert visible(sandbox, "development")

    term = Term([*FLAGTUI, "env", "remove", "default", "development"], env, cols=120)
    term.wait_for(lambda t: t.has("Type 'development' to confirm"), what="the question")
    term.send("development\r")
    assert finish(term) == 0
    assert not visible(sandbox, "development")


def test_on_a_terminal_archive_asks_for_the_flags_name(cli_env, sandbox):
    env = command_env(cli_env, sandbox)
    flag = "/api/admin/projects/default/features/admin-async-emails"
    argv = [*FLAGTUI, "feature", "archive", "default", "admin-async-emails"]
    term = Term(argv, env, cols=120)
    term.wait_for(lambda t: t.has("Type 'admin-async-emails' to confirm"), what="the question")
    term.send("admin-async\r")
    assert finish(term) == 2
    assert term.has("nothing was sent")
    assert read(sandbox, flag).status_code == 200

    term = Term(argv, env, cols=120)
    term.wait_for(lambda t: t.has("Type 'admin-async-emails' to confirm"), what="the question")
    term.send("admin-async-emails\r")
    assert finish(term) == 0
    assert read(sandbox, flag).status_code == 404  # archived


def read(sandbox, path: str) -> httpx.Response:
    return httpx.get(f"{sandbox.url}{path}", headers={"Authorization": sandbox.admin_token})


def visible(sandbox, environment: str) -> bool:
    answer = httpx.get(
        f"{sandbox.url}/api/admin/environments/project/default",
        headers={"Authorization": sandbox.admin_token},
    ).json()
    return any(e["name"] == environment and e["visible"] for e in answer["environments"])


@pytest.mark.parametrize(
    "argv",
    [
        ["failures", "-o", "jsonl"],
        ["feature", "patch", "default", "admin-async-emails", "--set", "stale=true", "--dry-run"],
    ],
)
def test_a_reader_that_is_gone_gets_no_traceback(cli_env, sandbox, argv):
    """As in `for ...; do flagtui ...; done | head -1`: later commands write to a closed pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [*FLAGTUI, *argv],
            env=command_env(cli_env, sandbox),
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 0
    # stderr holds only what the command says of its answer (failures: how complete it is).
    assert all(set(json.loads(line)) == {"answer"} for line in done.stderr.splitlines())
