"""Processes opening a new SQLite archive at the same moment all open it.

A new file is in SQLite's rollback mode until the first connection switches it to WAL, and
that switch needs the file to itself: SQLite answers "database is locked" at once, without its
busy wait, when another connection reads it meanwhile. Two collectors started together, or a
collector and the TUI's failures view, failed that way on a first run (seen in CI as a rare
failure of test_migrations' opening at once). Each connection here is held at a barrier just
before its first statement, so the switches meet."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import text

from flagtui.archive.engine import create_archive_engine
from flagtui.archive.location import sqlite_url

ROUNDS = 100  # new files; on the old code, one in ten or so had a connection fail
AT_ONCE = 4


def test_connections_to_a_new_file_at_once_all_open_it_in_wal_mode(tmp_path: Path):
    modes: list[str] = []
    for round_no in range(ROUNDS):
        url = sqlite_url(tmp_path / f"archive-{round_no}.db")
        engines = [create_archive_engine(url) for _ in range(AT_ONCE)]
        together = threading.Barrier(AT_ONCE)

        def first_statement(index: int, engines=engines, together=together) -> str:
            together.wait()
            with engines[index].connect() as conn:
                return str(conn.execute(text("PRAGMA journal_mode")).scalar())

        try:
            with ThreadPoolExecutor(AT_ONCE) as pool:
                modes += pool.map(first_statement, range(AT_ONCE))
        finally:
            for engine in engines:
                engine.dispose()
    assert modes == ["wal"] * (ROUNDS * AT_ONCE)
