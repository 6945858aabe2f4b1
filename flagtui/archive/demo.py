"""The demo's archive: a collector running beside the TUI, and history no server keeps.

`flagtui demo` serves its sandbox on a new port each run; the archive (a SQLite file beside
the demo database) is re-keyed to it, so its history stays the demo's. The first poll stores
the sandbox's generated history (more than a week), which the sandbox then forgets like real
Unleash at its first write. Seeded once on top of it: an integration deleted two days ago
with a week of failures, and two gaps (a collector stopped overnight, a burst the server
dropped), their deliveries taken out so the archive reads as a real one would.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from datetime import UTC, datetime, timedelta

from sqlalchemy import Table, and_, delete, select, update

from flagtui.api import AdminClient
from flagtui.api.models import IntegrationEvent
from flagtui.archive import schema
from flagtui.archive.collector import Collector
from flagtui.archive.queries import of_server
from flagtui.archive.store import Archive, delivery_row
from flagtui.triage.records import Gap

DELETED_ID = 900  # far above the sandbox's integrations
DEMO_INTERVAL = 5.0


def rekey(archive: Archive, old_keys: list[str]) -> None:
    """Make rows stored under an earlier run's URL this run's."""
    tables: list[Table] = [schema.integrations, schema.gaps]
    with archive.engine.begin() as conn:
        for table in tables:
            conn.execute(
                update(table).where(table.c.server.in_(old_keys)).values(server=archive.server)
            )
        server_id = archive.server_id(conn)
        servers = schema.servers
        old_ids = select(servers.c.id).where(servers.c.url.in_(old_keys)).scalar_subquery()
        for keyed in (schema.deliveries, schema.events):
            conn.execute(
                update(keyed).where(keyed.c.server_id.in_(old_ids)).values(server_id=server_id)
            )


def earlier_keys(archive: Archive) -> list[str]:
    table = schema.integrations
    with archive.reading() as conn:
        keys = conn.execute(select(table.c.server).distinct()).scalars().all()
    return [k for k in keys if k != archive.server]


def seeded(archive: Archive) -> bool:
    table = schema.integrations
    with archive.reading() as conn:
        found = conn.execute(
            select(table.c.id).where(table.c.server == archive.server, table.c.id == DELETED_ID)
        ).first()
    return found is not None


def seed(archive: Archive, now: datetime) -> None:
    """The deleted integration's week and two gaps (see the module's docstring)."""
    deliveries = [_deleted_hook_delivery(i, now - timedelta(hours=168 - i)) for i in range(120)]
    gaps = [
        Gap(2, now - timedelta(days=4, hours=9), now - timedelta(days=4, hours=1)),
        Gap(5, now - timedelta(days=1, hours=7), now - timedelta(days=1, hours=6)),
    ]
    table = schema.deliveries
    with archive.engine.begin() as conn:
        conn.execute(
            schema.integrations.insert().values(
                server=archive.server,
                id=DELETED_ID,
                provider="webhook",
                description="Legacy deploy notifier",
                enabled=True,
                deleted_at=now - timedelta(days=2),
            )
        )
        archive.insert_deliveries(conn, [delivery_row(d, now) for d in deliveries])
        for gap in gaps:
            conn.execute(
                delete(table).where(
                    and_(
                        of_server(archive.server),
                        table.c.integration_id == gap.integration_id,
                        table.c.created_at > gap.start,
                        table.c.created_at < gap.end,
                    )
                )
            )
            conn.execute(
                schema.gaps.insert().values(
                    server=archive.server,
                    integration_id=gap.integration_id,
                    start=gap.start,
                    end=gap.end,
                    recorded_at=gap.end,
                )
            )


def _deleted_hook_delivery(number: int, when: datetime) -> IntegrationEvent:
    failed = number % 3 != 0
    details = (
        "Webhook request failed with status code: 500"
        if failed
        else "Webhook request was successful with status code: 200"
    )
    return IntegrationEvent.model_validate(
        {
            "id": str(number + 1),
            "integrationId": DELETED_ID,
            "createdAt": when.isoformat(),
            "state": "failed" if failed else "success",
            "stateDetails": details,
            "event": {
                "id": 1_000_000 + number,
                "createdAt": when.isoformat(),
                "type": "feature-environment-enabled",
                "createdBy": "deploy-bot",
                "project": "default",
                "featureName": "checkout-v2",
                "environment": "production",
            },
        }
    )


class DemoCollector:
    """`Collector.run` in a thread of its own (its own event loop and client) beside the TUI;
    seeds the archive after its first poll."""

    def __init__(self, archive_url: str, server_url: str, token: str) -> None:
        self.archive_url = archive_url
        self.server_url = server_url
        self.token = token
        self.log: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="flagtui-demo-collector")
        self.first_poll = threading.Event()

    def start(self) -> DemoCollector:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop already ended
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=10)

    def _main(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        archive = await asyncio.to_thread(Archive.open, self.archive_url, self.server_url)
        try:
            old = await asyncio.to_thread(earlier_keys, archive)
            if old:
                await asyncio.to_thread(rekey, archive, old)
            async with AdminClient(self.server_url, self.token, profile="demo") as client:
                collector = Collector(client, archive, log=self.log.append)
                with contextlib.suppress(Exception):  # the loop below retries and logs
                    await collector.poll()
                    if not await asyncio.to_thread(seeded, archive):
                        await asyncio.to_thread(seed, archive, datetime.now(UTC))
                self.first_poll.set()
                await collector.run(DEMO_INTERVAL, self._stop)
        finally:
            self.first_poll.set()
            await asyncio.to_thread(archive.close)
