"""A first start in a real terminal whose profile's token comes from a token_command: the
command runs before the app takes the terminal (it may ask there for a passphrase, as gpg's
pinentry does), so its note is on stderr and no frame is drawn until it gave the token; then the
app starts. A start without one draws its first frame before the config and the client
(tests/tui/test_early_start.py). Ctrl-C and SIGTERM while the command runs stop it: 130 and
143, said once, no traceback, the terminal never taken."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hostile_pty import flagtui_env

from testkit.pty_term import Term

# Says it started, then waits for `go` before it prints the token (from flagtui's environment:
# never in a file the run leaves).
HOLDING = """
import os, sys, time
from pathlib import Path
here = Path(sys.argv[1])
(here / "started").write_text("")
while not (here / "go").exists():
    time.sleep(0.02)
print(os.environ["HELD_TOKEN"])
"""


def first_start(home: Path, sandbox: Any) -> Term:
    """`flagtui` with profile a, whose token comes from HOLDING, and nothing remembered."""
    script = home / "token.py"
    script.write_text(HOLDING)
    config = home / "config" / "flagtui" / "config.toml"
    config.parent.mkdir(parents=True)
    command = f"{sys.executable} {script} {home}"
    config.write_text(f'[profiles.a]\nurl = "{sandbox.url}"\ntoken_command = "{command}"\n')
    env = flagtui_env(home, sandbox.admin_token)
    env["HELD_TOKEN"] = env.pop("UNLEASH_API_TOKEN")
    argv = [sys.executable, "-m", "flagtui"]
    return Term(argv, env, cols=100, rows=24, record=True, controlling=True)


ALTERNATE_SCREEN = b"\x1b[?1049h"  # what the app sends as it takes the terminal


def held(term: Term, home: Path) -> None:
    """The token_command runs, its note said; the app has not taken the terminal."""
    deadline = time.monotonic() + 60  # a bound on a wait, not a time asserted
    while not (home / "started").exists():
        assert time.monotonic() < deadline, f"the token_command never started:\n{term.text()}"
        term.pump(0.05)
    term.settle(0.1)
    assert term.has("running the token_command of profile 'a'")
    assert ALTERNATE_SCREEN not in bytes(term.raw)


def test_the_token_command_runs_before_the_app_takes_the_terminal(sandbox, tmp_path):
    """A start that drew first ran the command under the app's frame, where a passphrase
    prompt on the terminal would have fought the app for it."""
    with first_start(tmp_path, sandbox) as term:
        held(term, tmp_path)
        (tmp_path / "go").write_text("")
        term.wait_for(lambda t: t.has("page 1/"), 30, "the first page")
        term.settle(0.2)
        term.send("q")
        term.settle(0.5)
        assert term.wait_exit(10) == 0
    assert (
        tmp_path / "cache" / "flagtui" / "rows" / "starts.json"
    ).exists()  # the next is a return


@pytest.mark.parametrize(
    ("how", "status", "said"), [("ctrl-c", 130, "interrupted"), ("sigterm", 143, "terminated")]
)
def test_ctrl_c_or_sigterm_while_the_token_command_runs(sandbox, tmp_path, how, status, said):
    with first_start(tmp_path, sandbox) as term:
        held(term, tmp_path)
        if how == "ctrl-c":
            term.send(b"\x03")
        else:
            os.kill(term.proc.pid, signal.SIGTERM)
        assert term.wait_exit(30) == status
        term.settle(0.2)
        message = f"flagtui: {said} while the token_command of profile 'a' ran; it was stopped"
        raw = bytes(term.raw)
        assert message.encode() in raw
        assert ALTERNATE_SCREEN not in raw  # never taken
        assert b"Traceback" not in raw
