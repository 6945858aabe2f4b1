"""An archive at schema version 5 (made by migrations 1 to 5, filled as that flagtui stored:
one event per delivery, the server's URL in every row, SQLite times as text) is read through
`ArchiveSource` after migration 6 moved it in place: the same failures, times to the
microsecond, events (now stored once for the deliveries they caused), groups, and the rows
it cannot read still skipped and counted. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, text

from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine
from flagtui.archive.migrations import LATEST, MIGRATIONS, SCHEMA_VERSION
from flagtui.archive.migrations.ddl import execute
from flagtui.archive.source import ArchiveSource

SERVER = "http://unleash.example:4242"
T0 = datetime(2026, 11, 20, 9, 30, 0, 123456, tzinfo=UTC)
FAILED = "Webhook request failed with status code: 503"
KEY = "Webhook request failed with status code: <n>"
INSERT = text(
    "INSERT INTO deliveries VALUES (:server, :integration, :delivery, :created, :state,"
    " :failed, :details_text, :key, :event, NULL, :created)"
)


def event(number: int | None) -> str:
    body: dict[str, Any] = {
        "createdAt": "2026-11-20T09:30:00Z",
        "type": "feature-updated",
        "featureName": f"f-{number}",
    }
    return json.dumps(body if number is None else {"id": number} | body)


def delivery(number: int, integration: int, event_text: str | None, *, sqlite: bool) -> dict:
    """Integration 2 always fails; deliveries a second apart, microseconds kept."""
    created: Any = T0 + timedelta(seconds=number)
    if sqlite:
        created = created.replace(tzinfo=None).isoformat(" ", "microseconds")
    failed = integration == 2
    return {
        "server": SERVER,
        "integration": integration,
        "delivery": number,
        "created": created,
        "state": "failed" if failed else "success",
        "failed": failed,
        "details_text": FAILED if failed else "Webhook request was successful",
        "key": KEY if failed else "Webhook request was successful",
        "event": event_text,
    }


def version_5_archive(url: str) -> bool:
    """Events 100 and 101 each delivered to integrations 1-3, an event without an id, a
    delivery without one; on SQLite also a failure whose time and one whose event are not
    readable. Whether it is SQLite."""
    engine = create_archive_engine(url)
    try:
        with engine.begin() as conn:
            sqlite = conn.dialect.name == "sqlite"
            execute(conn, SCHEMA_VERSION)
            for version, step in MIGRATIONS[:5]:
                step(conn)
                conn.execute(insert(schema.schema_version).values(version=version, applied_at=T0))
            rows = [delivery(n, (n - 1) % 3 + 1, event(100 + (n - 1) // 3), sqlite=sqlite)
                    for n in range(1, 7)]  # fmt: skip
            rows += [delivery(7, 2, event(None), sqlite=sqlite)]
            rows += [delivery(8, 2, None, sqlite=sqlite)]
            if sqlite:
                rows += [delivery(9, 2, event(102), sqlite=sqlite) | {"created": "yesterday-ish"}]
                rows += [delivery(10, 2, "{not json", sqlite=sqlite)]
            for row in rows:
                conn.execute(INSERT, row)
            conn.execute(
                text("INSERT INTO integrations VALUES (:s, 2, 'webhook', 'ops', :yes, NULL)"),
                {"s": SERVER, "yes": True},
            )
    finally:
        engine.dispose()
    return sqlite


async def test_a_version_5_archive_reads_the_same_after_migration_6(archive_url):
    sqlite = version_5_archive(archive_url)
    source = ArchiveSource(archive_url, SERVER)
    try:
        window = await source.window(None, limit=100)
        since = await source.window(T0 + timedelta(seconds=5), limit=100)
        grouped = await source.grouped(None)
    finally:
        source.close()
    failures = [
        (int(f.delivery.id), f.delivery.created_at, (f.delivery.event or {}).get("id"))
        for f in window.failures
    ]
    at = [T0 + timedelta(seconds=n) for n in range(11)]
    bad_json = 1 if sqlite else 0  # counted in the window, left out of the page it is read in
    assert failures == [(8, at[8], None), (7, at[7], None), (5, at[5], 101), (2, at[2], 100)]
    assert window.failures[0].delivery.state_details == FAILED
    assert [ref.label for ref in window.integrations] == ["ops (webhook)"]
    assert window.total == 4 + bad_json and since.total == 3 + bad_json  # 5, 7, 8 (and 10)
    assert window.unreadable == (2 if sqlite else 0)
    groups = [(g.integration.id, g.error_key, g.count) for g in grouped.groups]
    assert groups == [(2, KEY, 4 + bad_json)]
    last = at[10] if sqlite else at[8]
    assert (grouped.groups[0].first_seen, grouped.groups[0].last_seen) == (at[2], last)
    assert window.covers_since == at[1]

    engine = create_archive_engine(archive_url)
    try:
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT max(version) FROM schema_version")).scalar()
            events = conn.execute(text("SELECT count(*) FROM events")).scalar()
            servers = conn.execute(text("SELECT url FROM servers")).scalars().all()
            # SQLite: the old table's pages given back to the disk (VACUUM), not kept free
            free = conn.execute(text("PRAGMA freelist_count")).scalar() if sqlite else 0
            tables = set(
                conn.execute(
                    text("SELECT name FROM sqlite_master WHERE type = 'table'")
                    if sqlite
                    else text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                ).scalars()
            )
    finally:
        engine.dispose()
    assert versions == LATEST and servers == [SERVER] and free == 0
    # 100, 101 (three deliveries each), the one without an id; on SQLite 102 and the bad JSON
    assert events == (5 if sqlite else 3)
    assert "deliveries_v5" not in tables
