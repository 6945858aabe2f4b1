"""`flagtui demo`'s collector: runs beside the TUI in its own thread, keeps the sandbox's
history, adds a week with a deleted integration and gaps, and follows the demo to a new port."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from flagtui.archive.demo import DELETED_ID, DemoCollector
from flagtui.archive.location import sqlite_url
from flagtui.archive.source import ArchiveSource


def _window(url: str, server_url: str):
    source = ArchiveSource(url, server_url)
    try:
        week = datetime.now(UTC) - timedelta(days=7)
        return asyncio.run(source.window(week, limit=10_000))
    finally:
        source.close()


def test_the_demo_archive_holds_a_week_no_server_keeps(sandbox, tmp_path):
    url = sqlite_url(tmp_path / "demo-archive.db")
    collector = DemoCollector(url, sandbox.url, sandbox.admin_token).start()
    try:
        assert collector.first_poll.wait(timeout=60)
    finally:
        collector.stop()
    window = _window(url, sandbox.url)
    deleted = next(r for r in window.integrations if r.id == DELETED_ID)
    assert deleted.deleted and deleted.description == "Legacy deploy notifier"
    old = datetime.now(UTC) - timedelta(days=3)
    assert any(
        f.integration.id == DELETED_ID and f.delivery.created_at < old for f in window.failures
    )
    assert {g.integration_id for g in window.gaps} == {2, 5}
    assert window.covers_since is not None and window.covers_since < old
    for gap in window.gaps:  # a gap holds no delivery
        assert not [
            f
            for f in window.failures
            if f.integration.id == gap.integration_id
            and gap.start < f.delivery.created_at < gap.end
        ]

    # The next demo serves on another port: the archive follows it, seeded once.
    moved = sandbox.url.replace("127.0.0.1", "localhost")
    again = DemoCollector(url, moved, sandbox.admin_token).start()
    try:
        assert again.first_poll.wait(timeout=60)
    finally:
        again.stop()
    after = _window(url, moved)
    assert after.total == window.total
    assert len(after.gaps) == 2
