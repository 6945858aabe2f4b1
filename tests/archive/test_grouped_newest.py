"""An archive's groups name their newest failure (its triggering change: `failures --group`,
issue 48 item 4) and answer for one integration, on both back ends (SQLite through sqlite3
and through SQLAlchemy; PostgreSQL when FLAGTUI_TEST_ARCHIVE_PG is set)."""

from __future__ import annotations

from flagtui.archive.source import ArchiveSource

from .conftest import patch_many


async def test_each_group_holds_its_newest_failure_and_one_integration_answers_alone(
    sandbox, collector, archive_url
):
    patch_many(sandbox, 40, "grouped")
    await collector.poll()
    source = ArchiveSource(archive_url, sandbox.url)  # no live server: the archive alone
    try:
        grouped = await source.grouped(None)
        window = await source.window(None, limit=10**6)
        assert grouped.groups and sum(g.count for g in grouped.groups) == window.total
        for group in grouped.groups:
            newest = next(
                f
                for f in window.failures  # newest first
                if f.integration.id == group.integration.id
                and f.delivery.state_details is not None
                and group.newest is not None
                and f.delivery.id == group.newest.delivery.id
            )
            assert newest.delivery.created_at == group.last_seen
            assert group.newest.delivery.event is not None  # the triggering change
        one = grouped.groups[0].integration.id
        alone = await source.grouped(None, integration_id=one)
        assert {g.integration.id for g in alone.groups} == {one}
        assert alone.total == sum(g.count for g in grouped.groups if g.integration.id == one)
    finally:
        source.close()
