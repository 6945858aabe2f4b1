"""`flagtui failures --follow`: what is there, then each new failure as a JSON line, until
interrupted (exit 130, no traceback). A real subprocess, since it runs until stopped."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
from typing import IO

import httpx
import pytest

from flagtui.sandbox import SandboxServer

from ..processes import command_env, patch_many

FOLLOW = [sys.executable, "-m", "flagtui", "failures", "--follow"]
# Waits for a line or an exit: the bound only guards against a hang (a loaded machine took more
# than 30 s to start following), so the test's own timeout is raised to match.
WAIT_S = 120
pytestmark = pytest.mark.timeout(600)


def test_follow_prints_new_failures_as_they_happen(cli_env, sandbox):
    """From now: the demo's failures (from 2025) are not replayed, the new one is printed."""
    env = command_env(cli_env, sandbox)
    argv = [*FOLLOW, "--interval", "1", "--integration", "5", "-o", "jsonl"]
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert json.loads(proc.stderr.readline())["answer"]["following"] is True
        # Integration 5's key is revoked: this change's delivery to it fails.
        httpx.patch(
            f"{sandbox.url}/api/admin/projects/default/features/admin-async-emails",
            headers={"Authorization": sandbox.admin_token},
            json=[{"op": "replace", "path": "/description", "value": "followed"}],
        ).raise_for_status()
        first = json.loads(proc.stdout.readline())  # nothing from before it started
        assert (first["integrationId"], first["state"], first["source"]) == (5, "failed", "live")
        assert first["event"]["data"]["description"] == "followed"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT_S) == 130
        assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def lines_of(stream: IO[str]) -> queue.Queue[str]:
    """The stream's lines as they come, read by a thread (a pipe nobody reads fills up and
    blocks the writer)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True).start()
    return lines


def test_follow_keeps_following_while_the_server_is_away(cli_env, sandbox_db):
    """A server restarting must not end a follower: said once on stderr, then the new failures
    once it answers again."""
    first = SandboxServer(sandbox_db).start()
    env = {**command_env(cli_env, first), "UNLEASH_URL": first.url}
    argv = [*FOLLOW, "--interval", "1", "--integration", "5", "-o", "table"]
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    back = None
    try:
        assert proc.stdout is not None and proc.stderr is not None
        out, err = lines_of(proc.stdout), lines_of(proc.stderr)
        assert "following failures from" in err.get(timeout=WAIT_S)
        first.stop()
        said = err.get(timeout=WAIT_S)
        assert "still following, trying again every 1 s" in said, said
        back = SandboxServer(sandbox_db, port=first.port).start()
        assert err.get(timeout=WAIT_S) == "flagtui: failures --follow: reading again\n"
        httpx.patch(
            f"{back.url}/api/admin/projects/default/features/admin-async-emails",
            headers={"Authorization": back.admin_token},
            json=[{"op": "replace", "path": "/description", "value": "after the restart"}],
        ).raise_for_status()
        delivery = json.loads(out.get(timeout=WAIT_S))  # the first since it started
        assert delivery["event"]["data"]["description"] == "after the restart"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT_S) == 130
        assert err.get(timeout=WAIT_S) == "flagtui: interrupted\n"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if back is not None:
            back.stop()


def test_follow_on_the_archive_prints_new_failures(run, cli_env, sandbox, server):
    assert run("collect", "--once", "-o", "json").code == 0
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    argv = [sys.executable, "-m", "flagtui", "failures", "--follow", "--interval", "1"]
    argv += ["--integration", "5", "-o", "jsonl"]
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert json.loads(proc.stderr.readline())["answer"]["source"] == "archive"
        assert json.loads(proc.stderr.readline())["answer"]["following"] is True
        patch_many(server, 1, "followed on the archive")
        delivery = json.loads(proc.stdout.readline())  # the first since it started
        assert "followed on the archive" in str(delivery["event"])
        assert delivery["source"] == "archive"  # collected by the follower first
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT_S) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
