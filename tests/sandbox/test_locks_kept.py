"""A sandbox thread's new connection keeps the locks the process's other connections hold.

The sandbox gives each thread its own connection, and each connect made the file private by
opening and closing it: closing any descriptor of a file drops every POSIX lock the process
holds on it (SQLite's locks are such locks), so a reader mid-read held nothing in another
process's eyes (a second sandbox, or a tool, on the same file could checkpoint under it)."""

from __future__ import annotations

import sys

import pytest
from sqlite_locks import seen_from_another_process

from flagtui.sandbox.create import create_database
from flagtui.sandbox.db import connect

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks")


def test_connecting_again_keeps_a_readers_lock(tmp_path):
    path = tmp_path / "sandbox.db"
    create_database(path, size="empty")
    reader = connect(path)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM tokens").fetchall()
        assert seen_from_another_process(path) == "held"
        connect(path).close()  # another thread's connection
        assert seen_from_another_process(path) == "held"
        assert path.stat().st_mode & 0o777 == 0o600
    finally:
        reader.close()
