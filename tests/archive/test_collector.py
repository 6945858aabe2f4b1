"""The collector against a real sandbox that forgets like Unleash (newest 100 deliveries of the
last 2 hours across integrations, plus each one's latest), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from flagtui.api import AdminClient
from flagtui.archive import schema
from flagtui.archive.collector import Collector
from flagtui.archive.source import ArchiveSource
from flagtui.archive.store import Archive

from .conftest import patch_many
from .ids import server_ids, stored_ids


def gap_count(archive: Archive) -> int:
    with archive.reading() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.gaps)).scalar_one())


async def test_deliveries_the_server_forgot_are_still_in_the_archive(sandbox, collector, archive):
    patch_many(sandbox, 5, "first")
    await collector.poll()
    first = set(stored_ids(archive))
    patch_many(sandbox, 60, "later")  # 180 deliveries: the first ones drop off the server
    forgotten = first - server_ids(sandbox)
    assert forgotten, "the sandbox should have forgotten some deliveries"
    await collector.poll()
    assert forgotten <= set(stored_ids(archive))
    source = ArchiveSource(archive.engine.url.render_as_string(hide_password=False), sandbox.url)
    window = await source.window(None, limit=10_000)
    source.close()
    shown = {(f.integration.id, int(f.delivery.id)) for f in window.failures}
    revoked_key = {key for key in forgotten if key[0] == 5}  # integration 5 always fails
    assert revoked_key and revoked_key <= shown
    assert {f.origin for f in window.failures} == {"archive"}


async def test_more_than_100_deliveries_between_two_polls_is_a_gap(sandbox, collector, archive):
    patch_many(sandbox, 2, "before")
    await collector.poll()
    assert gap_count(archive) == 0
    patch_many(sandbox, 40, "burst")  # 120 deliveries to integrations 1, 2 and 5
    result = await collector.poll()
    assert {gap.integration_id for gap in result.gaps} == {1, 2, 5}
    assert gap_count(archive) == 3
    window = await ArchiveSource(str(archive.engine.url), sandbox.url).window(None)
    assert {g.integration_id for g in window.gaps} == {1, 2, 5}
    for gap in window.gaps:
        assert gap.start < gap.end
    again = await collector.poll()  # nothing new: nothing more recorded
    assert (again.stored, again.gaps, gap_count(archive)) == (0, [], 3)


async def test_a_restart_resumes_without_duplicates(sandbox, admin_client, archive_url):
    patch_many(sandbox, 3, "one")
    first = Archive.open(archive_url, sandbox.url)
    await Collector(admin_client, first, log=lambda _: None).poll()
    before = len(stored_ids(first))
    first.close()
    patch_many(sandbox, 4, "two")  # 12 new deliveries while no collector runs
    second = Archive.open(archive_url, sandbox.url)
    result = await Collector(admin_client, second, log=lambda _: None).poll()
    ids = stored_ids(second)
    second.close()
    assert result.stored == 12 and result.gaps == []
    assert len(ids) == len(set(ids)) == before + 12


@pytest.mark.slow  # two collectors racing for 10 s: the full suite's, not the inner loop's
async def test_two_collectors_on_one_archive_store_each_delivery_once(sandbox, archive_url):
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    patch_many(sandbox, 30, "shared")
    archives = [Archive.open(archive_url, sandbox.url) for _ in range(2)]
    clients = [AdminClient(sandbox.url, sandbox.admin_token, profile=f"c{i}") for i in range(2)]
    try:
        collectors = [
            Collector(c, a, log=lambda _: None) for c, a in zip(clients, archives, strict=True)
        ]
        results = await asyncio.gather(*(c.poll() for c in collectors))
        patch_many(sandbox, 10, "more")
        results += await asyncio.gather(*(c.poll() for c in collectors))
        ids = stored_ids(archives[0])
    finally:
        for archive in archives:
            archive.close()
        for client in clients:
            await client.aclose()
    assert len(ids) == len(set(ids))
    assert set(ids) == server_ids(sandbox)
    assert sum(r.stored for r in results) == len(ids)  # no row counted by both


async def test_a_deleted_integration_is_kept_and_marked(sandbox, collector, archive):
    patch_many(sandbox, 3, "doomed")
    await collector.poll()
    kept = [key for key in stored_ids(archive) if key[0] == 5]
    assert kept
    # The sandbox has no DELETE route for integrations; real Unleash deletes the integration
    # and its deliveries, which is what this does to the sandbox's own state.
    with contextlib.closing(sqlite3.connect(sandbox.db_path)) as conn, conn:
        conn.execute("DELETE FROM integration_events WHERE addon_id = 5")
        conn.execute("DELETE FROM addons WHERE id = 5")
    await collector.poll()
    assert [key for key in stored_ids(archive) if key[0] == 5] == kept
    source = ArchiveSource(str(archive.engine.url), sandbox.url)
    window = await source.window(datetime.now(UTC) - timedelta(days=1), integration_id=5)
    ref = next(r for r in window.integrations if r.id == 5)
    assert ref.deleted and ref.label.endswith("[deleted]")
    assert window.failures and all(f.integration.deleted for f in window.failures)
    source.close()


async def test_histogram_counts_failures_per_integration_and_bucket(sandbox, collector, archive):
    patch_many(sandbox, 10, "spark")
    await collector.poll()
    now = datetime.now(UTC)
    source = ArchiveSource(str(archive.engine.url), sandbox.url)
    counts = await source.histogram(now - timedelta(hours=1), now + timedelta(minutes=1), 12)
    window = await source.window(now - timedelta(hours=1), limit=10_000)
    source.close()
    assert all(len(row) == 12 for row in counts.values())
    by_integration: dict[int, int] = {}
    for failure in window.failures:
        by_integration[failure.integration.id] = by_integration.get(failure.integration.id, 0) + 1
    assert {k: sum(v) for k, v in counts.items() if sum(v)} == by_integration
    assert counts[5][-1] + counts[5][-2] == 10  # the revoked key fails every time, just now
    # Every integration has its row, zeros included: the sparklines tell "none" from "not yet".
    listed = {a.id for a in (await collector.client.integrations.list()).addons}
    assert set(counts) == listed and any(sum(v) == 0 for v in counts.values())


async def test_a_collector_stopped_while_the_server_forgot_leaves_a_gap(
    sandbox, admin_client, archive_url
):
    patch_many(sandbox, 2, "before the stop")
    first = Archive.open(archive_url, sandbox.url)
    await Collector(admin_client, first, log=lambda _: None).poll()
    first.close()
    patch_many(sandbox, 40, "while stopped")  # the server keeps only the newest 100
    second = Archive.open(archive_url, sandbox.url)
    result = await Collector(admin_client, second, log=lambda _: None).poll()
    newest_before = {g.integration_id: g.start for g in result.gaps}
    second.close()
    assert set(newest_before) == {1, 2, 5}
    assert all(g.start < g.end for g in result.gaps)
