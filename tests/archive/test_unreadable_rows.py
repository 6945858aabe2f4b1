"""A malformed row in a SQLite archive (a `created_at` that is not a time, an `event` that is
not JSON: a file edited by hand or by another program) is skipped and counted by every read,
never fatal. The archive is a real one filled by the collector, then broken with sqlite3."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flagtui.api import AdminClient
from flagtui.api.models import IntegrationEvent
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.source import ArchiveSource
from flagtui.archive.store import Archive, utc_now

from .unreadable import break_two_failures


async def collected(sandbox, path: Path) -> str:
    url = sqlite_url(path)
    archive = Archive.open(url, sandbox.url)
    try:
        async with AdminClient(sandbox.url, sandbox.admin_token, profile="rows") as client:
            await Collector(client, archive, log=lambda _: None).poll()
    finally:
        archive.close()
    return url


async def test_every_read_skips_and_counts_unreadable_rows(sandbox, tmp_path):
    url = await collected(sandbox, tmp_path / "archive.db")
    source = ArchiveSource(url, sandbox.url)
    try:
        before = await source.window(None, limit=100_000)
        broken = break_two_failures(tmp_path / "archive.db")
        window = await source.window(None, limit=100_000)
        grouped = await source.grouped(None)
        now = utc_now()
        counts = await source.histogram(now - timedelta(days=3650), now, 10)
    finally:
        source.close()
    assert before.unreadable == 0 and before.unreadable_note is None
    shown = {(f.integration.id, int(f.delivery.id)) for f in window.failures}
    assert shown == {(f.integration.id, int(f.delivery.id)) for f in before.failures} - set(broken)
    assert (window.unreadable, window.unreadable_note) == (2, "2 rows unreadable (skipped)")
    assert window.total == before.total - 1  # the bad time is out of every count; the bad event
    # is found only when its page is read
    assert grouped.unreadable == 1 and sum(g.count for g in grouped.groups) == before.total - 1
    assert sum(sum(bars) for bars in counts.values()) == before.total - 1


def delivery(delivery_id: int, created: str) -> IntegrationEvent:
    return IntegrationEvent.model_validate(
        {"id": str(delivery_id), "integrationId": 1, "createdAt": created, "state": "success"}
    )


def test_the_newest_stored_delivery_skips_one_whose_time_is_unreadable(tmp_path):
    """The collector resumes from the newest delivery it can read (ids newer than it are read
    again from the server and stored once), instead of failing on a broken row."""
    path = tmp_path / "archive.db"
    archive = Archive.open(sqlite_url(path), "http://unleash.example")
    try:
        older, newer = delivery(1, "2030-01-01T00:00:00Z"), delivery(2, "2030-01-02T00:00:00Z")
        assert archive.store([older, newer], now=utc_now()) == 2
        with sqlite3.connect(path) as db:
            db.execute("UPDATE deliveries SET created_at = 'yesterday-ish' WHERE delivery_id = 2")
        assert archive.newest_stored([1]) == {1: (1, datetime(2030, 1, 1, tzinfo=UTC))}
    finally:
        archive.close()
