"""A SQLite archive is read with the standard library's sqlite3 (`sqlite_reads`), never loading
SQLAlchemy, and answers as the SQLAlchemy queries do on the same file; an older archive is
migrated at the first read. The archive is a real one, filled by the collector."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flagtui.api import AdminClient
from flagtui.archive import queries, sqlite_reads
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.migrations import LATEST
from flagtui.archive.source import ArchiveSource
from flagtui.archive.store import Archive

from .conftest import patch_many
from .unreadable import break_two_failures

# The query `queries.unreadable_times` sends on SQLite, and `sqlite_reads`' own.
UNREADABLE_COUNTS = [
    "SELECT count(*) FROM deliveries WHERE deliveries.server = 'x' AND deliveries.failed = 1"
    " AND NOT (strftime('%Y-%m-%d %H:%M:%S', deliveries.created_at)"
    " IS substr(deliveries.created_at, 1, 19))",
    "SELECT count(*) FROM deliveries WHERE server = 'x' AND failed = 1"
    f" AND {sqlite_reads.UNREADABLE}",
]


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
    0.021 s to 0.295 s). Migration 5's partial index holds only those rows."""
    path = tmp_path / "archive.db"
    Archive.open(sqlite_url(path), "http://unleash.example").close()
    with sqlite3.connect(path) as db:
        for query in UNREADABLE_COUNTS:
            plan = " ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + query))
            assert "USING INDEX deliveries_unreadable_times" in plan, query


async def test_an_archive_at_version_4_is_migrated_at_the_first_read(sandbox, tmp_path):
    path = tmp_path / "archive.db"
    archive = await collected(sandbox, path)
    archive.close()
    with sqlite3.connect(path) as db:  # what a flagtui that knew migrations 1 to 4 left
        db.execute("DROP INDEX deliveries_unreadable_times")
        db.execute("DELETE FROM schema_version WHERE version >= 5")
    source = ArchiveSource(sqlite_url(path), sandbox.url)
    try:
        window = await source.window(None)
    finally:
        source.close()
    assert window.total > 0 and {f.origin for f in window.failures} == {"archive"}
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT max(version) FROM schema_version").fetchone()[0] == LATEST
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "deliveries_unreadable_times" in names
