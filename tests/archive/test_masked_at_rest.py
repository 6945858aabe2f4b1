"""The archive keeps what triage needs and never a secret (issue 23, item 3), on SQLite and
PostgreSQL: a delivery is stored masked, its error still grouped as before; rows stored before
masking (schema version 1) are masked by migration 2 when the archive is opened."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    MetaData,
    String,
    Table,
    Text,
    insert,
    inspect,
    select,
)

from flagtui.api.models import IntegrationEvent
from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine
from flagtui.archive.migrations import MIGRATIONS
from flagtui.archive.store import Archive, delivery_row
from flagtui.masking import MASK
from flagtui.triage.grouping import error_key

SERVER = "http://unleash.example:4242"
URL = "https://bot:pa55w0rd@hooks.example.com/services/T0PATHs3cr3t?token=q5ecretvalue"
MASKED_URL = f"https://{MASK}@hooks.example.com/{MASK}?token={MASK}"
BODY = '{"auth": "b0dys3cr3t"}'
SECRETS = ("pa55w0rd", "T0PATHs3cr3t", "q5ecretvalue", "b0dys3cr3t")
STATE_DETAILS = f"Webhook request to {URL} failed with status code: 503"
NOW = datetime(2030, 1, 1, tzinfo=UTC)
# The deliveries table as migration 1 made it (one event per delivery, the server's URL in each).
V1_DELIVERIES = Table(
    "deliveries",
    MetaData(),
    Column("server", String(512), primary_key=True),
    Column("integration_id", BigInteger, primary_key=True),
    Column("delivery_id", BigInteger, primary_key=True),
    Column("created_at", schema.UtcDateTime, nullable=False),
    Column("state", String(64), nullable=False),
    Column("failed", Boolean, nullable=False),
    Column("state_details", Text),
    Column("error_key", Text, nullable=False),
    Column("event", JSON),
    Column("details", JSON),
    Column("collected_at", schema.UtcDateTime, nullable=False),
)


def secret_delivery(delivery_id: int) -> IntegrationEvent:
    return IntegrationEvent.model_validate(
        {
            "id": str(delivery_id),
            "integrationId": 1,
            "createdAt": "2030-01-01T00:00:00Z",
            "state": "failed",
            "stateDetails": STATE_DETAILS,
            "event": {
                "id": 7,
                "createdAt": "2030-01-01T00:00:00Z",
                "type": "feature-updated",
                "data": {"name": "api-key-rotation", "link": URL},
            },
            "details": {"url": URL, "contentType": "application/json", "body": BODY},
        }
    )


def stored_text(archive_url: str) -> str:
    engine = create_archive_engine(archive_url)
    table, events = schema.deliveries, schema.events
    try:
        with engine.connect() as conn:
            if inspect(conn).has_table("servers"):  # schema version 6 on: events of their own
                query = select(table, events.c.event).select_from(
                    table.outerjoin(events, events.c.id == table.c.event_row)
                )
            else:
                query = select(V1_DELIVERIES)
            rows = conn.execute(query).mappings().all()
    finally:
        engine.dispose()
    return json.dumps([dict(row) for row in rows], default=str, ensure_ascii=False)


def test_a_delivery_is_stored_masked(archive_url):
    archive = Archive.open(archive_url, SERVER)
    try:
        assert archive.store([secret_delivery(1)], now=NOW) == 1
    finally:
        archive.close()
    text = stored_text(archive_url)
    assert [s for s in SECRETS if s in text] == []
    row = json.loads(text)[0]
    assert row["details"] == {"url": MASKED_URL, "contentType": "application/json", "body": MASK}
    assert row["event"]["data"] == {"name": "api-key-rotation", "link": MASKED_URL}
    assert row["error_key"] == error_key(STATE_DETAILS)  # grouped as before


def test_rows_stored_before_masking_are_masked_by_migration_2(archive_url):
    engine = create_archive_engine(archive_url)
    with engine.begin() as conn:  # an archive as flagtui left it at schema version 1
        schema.schema_version.create(conn)
        version, first = MIGRATIONS[0]
        first(conn)
        conn.execute(insert(schema.schema_version).values(version=version, applied_at=NOW))
        rows = [delivery_row(secret_delivery(n), NOW) | {"server": SERVER} for n in range(1, 1201)]
        for row, n in zip(rows, range(1, 1201), strict=True):  # as stored then: in clear
            plain = secret_delivery(n)
            row["state_details"] = plain.state_details
            row["details"] = plain.details
            row["event"] = (
                plain.event.model_dump(mode="json", by_alias=True) if plain.event else None
            )
        conn.execute(insert(V1_DELIVERIES), rows)
    engine.dispose()
    assert "q5ecretvalue" in stored_text(archive_url)
    Archive.open(archive_url, SERVER).close()
    text = stored_text(archive_url)
    assert [s for s in SECRETS if s in text] == []
    assert len(json.loads(text)) == 1200  # every batch, none lost
    if archive_url.startswith("sqlite"):  # nor left in the file's free space (secure_delete)
        on_disk = Path(archive_url.split(":///", 1)[1]).read_bytes()
        assert [s for s in SECRETS if s.encode() in on_disk] == []
