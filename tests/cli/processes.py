"""Running `flagtui` commands as a person does: the command line, its environment, the end of a
run in a pseudo-terminal; and events made on a sandbox (`patch_many`)."""

from __future__ import annotations

import os
import sys

import httpx

from testkit.pty_term import Term

FLAGTUI = [sys.executable, "-m", "flagtui"]


def command_env(cli_env, sandbox) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "HOME": str(cli_env),
        "TERM": "xterm-256color",
        "FLAGTUI_CONFIG": str(cli_env / "config.toml"),
        "FLAGTUI_CREDENTIALS": str(cli_env / "creds" / "tokens.toml"),
        "UNLEASH_URL": sandbox.url,
        "UNLEASH_API_TOKEN": sandbox.admin_token,
    }


def finish(term: Term) -> int:
    """The exit code, once the command ended and all it wrote was read."""
    code = term.wait_exit(60)
    term.settle(quiet=0.2)
    term.close()
    return code


FLAG = "/api/admin/projects/default/features/admin-async-emails"


def patch_many(server: httpx.Client, times: int, label: str) -> None:
    for i in range(times):
        body = [{"op": "replace", "path": "/description", "value": f"{label} {i}"}]
        server.patch(FLAG, json=body).raise_for_status()
