"""`flagtui collect` when the server refuses its token (revoked): it reads the profile's token
source again once (it may have been rotated) and goes on with the new token; a token still
refused after that stops it with exit 3, instead of retrying forever. A real collector process
on the real sandbox, its tokens changed in the sandbox's database."""

from __future__ import annotations

import json
import secrets
import sqlite3
import subprocess
import sys
from collections.abc import Iterator

from ..processes import command_env


def new_admin_token(sandbox, revoked: str) -> str:
    """A new admin token replaces `revoked` on the sandbox (served from the next request)."""
    token = f"*:*.{secrets.token_hex(32)}"
    with sqlite3.connect(sandbox.db_path) as db:
        (user_id,) = db.execute(
            "SELECT user_id FROM tokens WHERE secret = ?", (revoked,)
        ).fetchone()
        db.execute("INSERT INTO tokens VALUES (?, 'admin', ?)", (token, user_id))
        db.execute("DELETE FROM tokens WHERE secret = ?", (revoked,))
    sandbox.use_database(sandbox.db_path)
    return token


def lines_until(lines: Iterator[str], text: str) -> list[str]:
    """The lines read until one holds `text` (the collector logs one per change of state)."""
    read = []
    for line in lines:
        read.append(line)
        if text in line:
            return read
    raise AssertionError(f"the collector ended without saying {text!r}: {read}")


def test_a_refused_token_is_read_again_once_then_collect_stops_with_exit_3(
    cli_env, sandbox, tmp_path
):
    token_file = tmp_path / "token"
    token_file.write_text(sandbox.admin_token)
    (cli_env / "config.toml").write_text(
        f'[profiles.rotating]\nurl = "{sandbox.url}"\ntoken_command = "cat {token_file}"\n'
    )
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    del env["UNLEASH_URL"], env["UNLEASH_API_TOKEN"]
    argv = [sys.executable, "-m", "flagtui", "collect", "-P", "rotating", "--interval", "1"]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        lines = iter(proc.stderr.readline, "")
        lines_until(lines, "collecting every")
        # Rotated: the old token revoked, the new one in the token source.
        token_file.write_text(new_admin_token(sandbox, sandbox.admin_token))
        lines_until(lines, "reading the token again")
        lines_until(lines, "collecting every")  # on with the new token
        # Revoked, and the token source still holds it: read again once, then the end.
        new_admin_token(sandbox, token_file.read_text())
        lines_until(lines, "reading the token again")
        assert proc.wait(timeout=60) == 3
        rest = proc.stderr.read().splitlines()
        assert "stopping (the token is refused)" in rest[-2]
        assert json.loads(rest[-1])["error"]["kind"] == "authentication"  # piped: JSON
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
