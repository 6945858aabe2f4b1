"""A SQLite archive is read with the standard library's sqlite3 (`sqlite_reads`), never loading
SQLAlchemy, and answers as the SQLAlchemy queries do on the same file; an older archive is
migrated at the first read (test_upgrade_to_v6.py). The archive is a real one, filled by the
collector."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flagtui.api import AdminClient
from flagtui.archive import queries, sqlite_reads
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.store import Archive

from .conftest import patch_many
from .unreadable import break_two_failures


async def collected(sandbox, path: Path) -> Archive:
    archive = Archive.open(sqlite_url(path), sandbox.url)
    patch_many(sandbox, 3, "sqlite reads")
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="reads") as client:
        await Collector(client, archive, log=lambda _: None).poll()
    return archive


async def test_sqlite3_answers_as_sqlalchemy_on_the_same_archive(sandbox, tmp_path):
    path = tmp_path / "archive.db"
    archive = await collected(sandbox, path)
    break_two_failures(path)  # both readers skip and count the same rows
    now = datetime.now(UTC)
    server = archive.server
    conn = sqlite_reads.open_current(path)

    def answers(reads, db) -> list[object]:
        refs = reads.integrations(db, server)
        by_id = {r.id: r for r in refs}
        found = []
        for since in (None, now - timedelta(days=3)):
            failures, total, skipped = reads.failures(db, server, by_id, since, None, None, 50)
            found += [[(f.integration, f.delivery, f.origin) for f in failures], total, skipped]
            found += [reads.groups(db, server, by_id, since), reads.gaps(db, server, since, None)]
        one = refs[0].id
        found += [reads.failures(db, server, by_id, None, one, None, 10)[:2]]
        found += [reads.oldest_stored(db, server), reads.unreadable_times(db, server)]
        found += [reads.newest_id(db, server), reads.collected_until(db, server, None)]
        found += [reads.stored(db, server, [(5, 1), (5, 10**9), (1, 2)])]
        found += [reads.histogram(db, server, now - timedelta(days=9), now, 12)]
        return found

    try:
        with archive.reading() as engine_conn:
            by_sqlalchemy = answers(queries, engine_conn)
        with sqlite_reads.reading(conn):
            by_sqlite3 = answers(sqlite_reads, conn)
    finally:
        conn.close()
        archive.close()
    assert by_sqlalchemy[2] == 1 and by_sqlalchemy[1] > 0  # a skipped row and failures, read
    assert by_sqlite3 == by_sqlalchemy


async def test_reading_a_sqlite_archive_never_imports_sqlalchemy(sandbox, tmp_path):
    path = tmp_path / "archive.db"
    (await collected(sandbox, path)).close()
    script = (
        "import asyncio, json, sys\n"
        "from flagtui.archive.source import ArchiveSource\n"
        f"source = ArchiveSource({sqlite_url(path)!r}, {sandbox.url!r})\n"
        "window = asyncio.run(source.window(None))\n"
        "grouped = asyncio.run(source.grouped(None))\n"
        "source.close()\n"
        "print(json.dumps([window.total, len(grouped.groups), 'sqlalchemy' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    total, groups, loaded = json.loads(done.stdout)
    assert total > 0 and groups > 0
    assert loaded is False


def test_the_unreadable_count_reads_an_index_not_every_failure(tmp_path):
    """Every answer counts the failures whose time cannot be read; testing each stored failure's
    time took 0.12 s and more on a million deliveries (archive_first_page_24h_s went from
    0.021 s to 0.15-0.3 s). An index holds only those rows (migration 5, remade by 6); the
    sqlite3 reads ask for it by name (INDEXED BY), which SQLite refuses unless it can serve."""
    path = tmp_path / "archive.db"
    archive = Archive.open(sqlite_url(path), "http://unleash.example")
    conn = sqlite_reads.open_current(path)
    try:
        with archive.reading() as engine_conn:
            assert queries.unreadable_times(engine_conn, archive.server) == 0
        assert sqlite_reads.unreadable_times(conn, archive.server) == 0  # INDEXED BY: served
    finally:
        conn.close()
        archive.close()
