"""`flagtui failures --follow`: what is there, then each new failure as a JSON line, until
interrupted (exit 130, no traceback). A real subprocess, since it runs until stopped."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import httpx

from .test_terminal import command_env


def test_follow_prints_new_failures_as_they_happen(cli_env, sandbox):
    env = command_env(cli_env, sandbox)
    argv = [
        sys.executable,
        "-m",
        "flagtui",
        "failures",
        "--follow",
        "--interval",
        "0.2",
        "--integration",
        "5",
    ]
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        assert (first["integrationId"], first["state"]) == (5, "failed")
        # Integration 5's key is revoked: this change's delivery to it fails.
        httpx.patch(
            f"{sandbox.url}/api/admin/projects/default/features/admin-async-emails",
            headers={"Authorization": sandbox.admin_token},
            json=[{"op": "replace", "path": "/description", "value": "followed"}],
        ).raise_for_status()
        for _ in range(200):
            delivery = json.loads(proc.stdout.readline())
            if (delivery.get("event") or {}).get("data", {}).get("description") == "followed":
                break
        else:
            raise AssertionError("the new failure was not printed")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
        assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
