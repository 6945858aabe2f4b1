"""The failures view's tests' helpers: an integration that fails, new failures, the rows shown."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import IntegrationEvent
from flagtui.archive.location import sqlite_url
from flagtui.archive.store import Archive
from flagtui.triage.records import Delivery, Failure, Gap, IntegrationRef
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.triage_view import now_utc
from flagtui.tui.widgets.table import ResourceTable

PROJECT = "payments"


async def datadog(client: AdminClient) -> IntegrationRef:
    addon = next(a for a in (await client.integrations.list()).addons if a.provider == "datadog")
    return IntegrationRef.of(addon)


async def new_failures(client: AdminClient, count: int = 1) -> set[str]:
    """Change a flag's description `count` times: each change is one failed Datadog delivery
    (more integrations may fail too). Returns the rows' keys of the new Datadog failures."""
    hook = await datadog(client)
    before = {d.id for d in await client.integrations.events(hook.id, limit=100)}
    feature = (
        (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    )
    for _ in range(count):
        text = f"changed by a failures test {uuid.uuid4().hex[:6]}"
        await client.features.patch(
            PROJECT, feature, [{"op": "replace", "path": "/description", "value": text}]
        )
    after = await client.integrations.events(hook.id, limit=100)
    made = {f"{hook.id}:{d.id}" for d in after if d.id not in before and d.failed}
    assert len(made) == count
    return made


def keys(app: FlagtuiApp, selector: str = "#failures") -> list[str]:
    table = app.screen.query_one(selector, ResourceTable)
    return [str(row.key.value) for row in table.ordered_rows]


async def until(pilot: Pilot[Any], condition: Callable[[], bool], limit_s: float = 15.0) -> None:
    """Wait for the app to get somewhere by itself (follow mode's timer), never longer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while not condition():
        assert loop.time() < deadline, "the app never got there"
        await pilot.pause(0.05)


def forget_a_new_failure(db_path: Any) -> None:
    """A failed delivery of integration 1 recorded on the server now, written to its database
    (as the server records one): the next deliveries push it out of the server's memory."""
    now = now_utc().isoformat(timespec="milliseconds").replace("+00:00", "Z")
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) SELECT 1, ?, 'failed', 'Webhook request failed', event, '{}'"
            " FROM integration_events LIMIT 1",
            (now,),
        )


def moved_to(failure: Failure, at: datetime) -> Failure:
    """A live failure as the archive would hold it had it happened at `at`."""
    model = IntegrationEvent.model_validate(failure.delivery.wire)
    moved = model.model_copy(update={"created_at": at})
    return Failure(failure.integration, Delivery.of(moved), "archive")


def archive_of(
    path: Path,
    server_url: str,
    refs: list[IntegrationRef],
    failures: list[Failure],
    gaps: list[Gap],
) -> str:
    """A real delivery archive (SQLite) holding these failures and gaps, collected just now;
    its URL."""
    url = sqlite_url(path)
    archive = Archive.open(url, server_url)
    try:
        now = now_utc()
        archive.sync_integrations(refs, now)
        archive.store([IntegrationEvent.model_validate(f.delivery.wire) for f in failures], now=now)
        archive.record_collection([r.id for r in refs], now, whole_server=True)
        for gap in gaps:
            archive.store([], gap, now=now)
    finally:
        archive.close()
    return url
