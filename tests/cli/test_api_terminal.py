"""`flagtui api` in a real pseudo-terminal on the sandbox's hostile project: the answer indented,
its server text made visible (no C1 control, no BiDi override, no escape sequence reaches the
terminal); piped, the same answer is the server's JSON."""

from __future__ import annotations

import json
import subprocess

from hostile_pty import offences

from testkit.pty_term import Term

from .processes import FLAGTUI, command_env, finish


def test_a_terminal_gets_indented_json_with_server_text_made_visible(cli_env, sandbox):
    env = command_env(cli_env, sandbox)
    argv = [*FLAGTUI, "api", "GET", "/api/admin/projects"]
    piped = subprocess.run(argv, env=env, capture_output=True, timeout=60)
    assert piped.returncode == 0, piped.stderr
    hostile = next(p for p in json.loads(piped.stdout)["projects"] if "\u202e" in p["name"])

    term = Term(argv, env, cols=1000, rows=400)
    assert finish(term) == 0
    assert offences(bytes(term.raw)) == []
    assert b"\xe2\x80\xae" not in term.raw  # U+202E as UTF-8
    lines = [line.rstrip() for line in term.text().splitlines()]
    assert lines[0] == "{" and lines[1] == '  "version": 1,'
    shown = next(line for line in lines if f'"name": "{hostile["name"][:10]}' in line)
    assert "<U+009B>2JHX-C1 <U+202E>txt.exe<U+2066>isolate<U+2069><U+202C>" in shown
