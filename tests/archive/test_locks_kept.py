"""Opening an archive again in a process that has it open keeps that process's SQLite locks.

Closing any descriptor of a file drops every POSIX lock the process holds on it; SQLite's
locks are such locks. `private_file` (making the file 0600) once opened and closed the archive
on every open: the process's other connection then held nothing in another process's eyes,
which could take the archive for unused and checkpoint or remove the WAL under it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlite_locks import seen_from_another_process

from flagtui.archive.engine import create_archive_engine


def test_opening_the_archive_again_keeps_a_readers_lock(tmp_path: Path) -> None:
    path = tmp_path / "archive.db"
    create_archive_engine(f"sqlite:///{path}").dispose()  # a 0600 file, as a first open makes
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        reader.execute("PRAGMA journal_mode=WAL")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM sqlite_master").fetchall()
        assert seen_from_another_process(path) == "held"
        create_archive_engine(f"sqlite:///{path}").dispose()  # the collector's, the view's
        assert seen_from_another_process(path) == "held"
        assert path.stat().st_mode & 0o777 == 0o600
    finally:
        reader.close()
