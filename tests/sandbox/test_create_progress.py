"""Creating a database shows a progress bar on a terminal, and nothing when stderr is not one."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from flagtui.sandbox import create_database, read_tokens
from testkit.pty_term import Term  # shared with the pty tests

CREATE = (
    "import sys; from flagtui.sandbox import create_database as c; c(sys.argv[1], progress=True)"
)


def test_a_terminal_sees_a_progress_bar(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80"}
    with Term([sys.executable, "-c", CREATE, str(db)], env, cols=80, rows=5) as term:
        term.wait_for(lambda t: t.has("demo data") and t.has("%"), 60, "the progress bar")
        assert term.wait_exit(120) == 0
    assert read_tokens(db).admin


def test_no_terminal_no_output(tmp_path: Path, capfd) -> None:
    create_database(tmp_path / "demo.db", progress=True)
    out, err = capfd.readouterr()
    assert out == err == ""
