"""The collector against real Unleash: a failing webhook's deliveries reach the archive once,
with their triggering event.

Deleting an integration is tested on the sandbox only: on real Unleash 8.2.0, an event in the
minute after the deletion (its list of integrations is cached that long) still delivers to
the deleted one, the insert violates a foreign key, and the server process ends. Other
sessions share the test server, so this suite must never delete an integration.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from flagtui.archive import schema
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.source import ArchiveSource
from flagtui.archive.store import Archive

pytestmark = pytest.mark.unleash
WAIT_POLLS = 30  # real Unleash delivers after answering the write: poll until it is stored


def _stored(archive: Archive, integration_id: int) -> list[tuple[int, object]]:
    table, events = schema.deliveries, schema.events
    with archive.reading() as conn:
        rows = conn.execute(
            select(table.c.delivery_id, events.c.event)
            .select_from(table.outerjoin(events, events.c.id == table.c.event_row))
            .where(table.c.integration_id == integration_id)
        )
        return [(int(r[0]), r[1]) for r in rows]


async def test_collector_stores_real_deliveries_once(
    real_client, real_unleash, real_webhook, real_feature, unleash_admin, tmp_path
):
    url = sqlite_url(tmp_path / "real.db")
    archive = Archive.open(url, real_unleash.url)
    collector = Collector(real_client, archive, log=lambda _: None)
    await collector.poll()
    assert _stored(archive, real_webhook)
    await unleash_admin.patch(
        f"/api/admin/projects/default/features/{real_feature}",
        json=[{"op": "replace", "path": "/description", "value": "collected by flagtui"}],
    )
    for _ in range(WAIT_POLLS):
        await collector.poll()
        stored = _stored(archive, real_webhook)
        if any("collected by flagtui" in str(event) for _, event in stored):
            break
        await asyncio.sleep(1)
    else:
        raise AssertionError("the new delivery never reached the archive")
    ids = [delivery_id for delivery_id, _ in stored]
    assert len(ids) == len(set(ids))
    source = ArchiveSource(url, real_unleash.url)
    window = await source.window(None, integration_id=real_webhook)
    source.close()
    archive.close()
    assert window.failures and window.failures[0].delivery.event is not None
    assert window.failures[0].integration.provider == "webhook"
    assert "status code" in (window.failures[0].delivery.state_details or "")
