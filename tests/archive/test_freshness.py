"""Up to when the archive knows the answer (issue 23, item 1): each complete poll is recorded,
per server and per integration, by a new migration; and a walk joined by delivery ids, so a
delivery the server drops mid-walk cannot make the collector skip another. Real sandbox, real
archives (SQLite; PostgreSQL when FLAGTUI_TEST_ARCHIVE_PG is set)."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import insert, inspect

from flagtui.api import AdminClient
from flagtui.archive import schema
from flagtui.archive.collector import Collector
from flagtui.archive.engine import create_archive_engine
from flagtui.archive.migrations import LATEST, MIGRATIONS, SCHEMA_VERSION
from flagtui.archive.migrations.ddl import execute
from flagtui.archive.source import ArchiveSource
from flagtui.archive.store import Archive
from flagtui.triage.source import LiveSource

from .conftest import patch_many
from .ids import server_ids, stored_ids

THEN = datetime(2026, 11, 26, 3, 12, 40, tzinfo=UTC)


async def test_each_complete_poll_says_up_to_when_it_read(sandbox, admin_client, archive):
    source = ArchiveSource(str(archive.engine.url.render_as_string(False)), sandbox.url)
    try:
        assert (await source.window(None)).collected_until is None
        await Collector(admin_client, archive, log=lambda _: None, clock=lambda: THEN).poll()
        assert (await source.window(None)).collected_until == THEN
        assert (await source.window(None, integration_id=5)).collected_until == THEN
        assert (await source.grouped(None)).collected_until == THEN
        earlier = THEN - timedelta(minutes=5)  # a slower collector finishing later
        await Collector(admin_client, archive, log=lambda _: None, clock=lambda: earlier).poll()
        assert (await source.window(None)).collected_until == THEN
    finally:
        source.close()


def test_an_archive_at_version_1_gains_the_collections_table(archive_url, sandbox):
    engine = create_archive_engine(archive_url)
    with engine.begin() as conn:  # what a flagtui with only migration 1 left
        execute(conn, SCHEMA_VERSION)
        version, first = MIGRATIONS[0]
        first(conn)
        conn.execute(insert(schema.schema_version).values(version=version, applied_at=THEN))
    engine.dispose()
    archive = Archive.open(archive_url, sandbox.url)
    try:
        assert archive.version == LATEST >= 2
        with archive.reading() as conn:
            assert inspect(conn).has_table("collections")
    finally:
        archive.close()


class DropsOneMidWalk(httpx.AsyncBaseTransport):
    """The sandbox's transport, which deletes integration 5's newest delivery right after the
    first page of its deliveries was answered: every older row moves up by one, as when the
    server forgets a delivery between two page reads."""

    def __init__(self, db_path: str) -> None:
        self.real = httpx.AsyncHTTPTransport()
        self.db_path = db_path
        self.dropped = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.real.handle_async_request(request)
        if request.url.path.endswith("/addons/5/events") and not self.dropped:
            self.dropped = True
            with contextlib.closing(sqlite3.connect(self.db_path)) as conn, conn:
                conn.execute(
                    "DELETE FROM integration_events WHERE id ="
                    " (SELECT max(id) FROM integration_events WHERE addon_id = 5)"
                )
        return response

    async def aclose(self) -> None:
        await self.real.aclose()


async def test_a_delivery_dropped_mid_walk_does_not_make_the_walk_skip_one(sandbox, archive):
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    patch_many(sandbox, 150, "long walk")  # integration 5: more than one page
    before = {key for key in server_ids(sandbox) if key[0] == 5}
    transport = DropsOneMidWalk(str(sandbox.db_path))
    async with AdminClient(
        sandbox.url, sandbox.admin_token, profile="drop", transport=transport
    ) as client:
        await Collector(client, archive, log=lambda _: None).poll()
    assert transport.dropped
    stored = {key for key in stored_ids(archive) if key[0] == 5}
    assert stored == before  # the dropped one was read before it went; none skipped


async def test_an_old_archives_sparklines_count_the_live_failures_it_lacks(
    sandbox, admin_client, archive
):
    stale = THEN - timedelta(days=1)
    await Collector(admin_client, archive, log=lambda _: None, clock=lambda: stale).poll()
    patch_many(sandbox, 2, "after the collector stopped")  # integration 5 fails both
    now = datetime.now(UTC)
    url = str(archive.engine.url.render_as_string(False))
    alone = ArchiveSource(url, sandbox.url)
    checked = ArchiveSource(url, sandbox.url, LiveSource(admin_client))
    try:
        span = (now - timedelta(hours=1), now + timedelta(minutes=1), 6)
        assert sum((await alone.histogram(*span)).get(5, [])) == 0
        assert sum((await checked.histogram(*span))[5]) == 2
    finally:
        alone.close()
        checked.close()


async def test_an_archive_answers_only_up_to_its_collection_the_server_the_rest(
    sandbox, admin_client, archive
):
    """Collected just now, then deliveries fail: they are in the answer, read from the server
    (issue 43, item 4); without the server the answer is incomplete, not `complete`."""
    await Collector(admin_client, archive, log=lambda _: None).poll()
    patch_many(sandbox, 2, "after a fresh collection")  # integration 5 fails both
    url = str(archive.engine.url.render_as_string(False))
    checked = ArchiveSource(url, sandbox.url, LiveSource(admin_client))
    alone = ArchiveSource(url, sandbox.url)
    try:
        window = await checked.window(None, integration_id=5)
        fresh = [f for f in window.failures if f.origin == "live"]
        assert len(fresh) == window.live_added == 2 and window.complete
        assert window.clock_fault is None
        unread = await alone.window(None, integration_id=5)
        assert not unread.complete and "not read" in (unread.unchecked or "")
        assert all(f.origin == "archive" for f in unread.failures)
    finally:
        checked.close()
        alone.close()


async def test_a_collection_later_than_now_is_said_and_vouches_for_nothing_more(
    sandbox, admin_client, archive
):
    ahead = datetime.now(UTC) + timedelta(hours=1)
    await Collector(admin_client, archive, log=lambda _: None, clock=lambda: ahead).poll()
    patch_many(sandbox, 1, "behind a clock ahead")
    url = str(archive.engine.url.render_as_string(False))
    source = ArchiveSource(url, sandbox.url, LiveSource(admin_client))
    try:
        window = await source.window(None, integration_id=5)
        assert window.clock_fault is not None and "clock runs ahead" in window.clock_fault
        assert window.live_added == 1 and window.complete
        assert (await source.grouped(None)).clock_fault == window.clock_fault
        assert (await source.window(datetime.now(UTC) - timedelta(minutes=1))).clock_fault
    finally:
        source.close()
