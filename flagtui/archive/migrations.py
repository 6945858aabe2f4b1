"""Versioned migrations, applied when an archive is opened.

`schema_version` holds one row per applied migration. Two processes opening one archive at
once are serialised: on PostgreSQL by a transaction-level advisory lock, on SQLite by taking
the write lock first (BEGIN IMMEDIATE, see `engine.py`); the second finds the versions applied
and does nothing. A migration is a function of a connection, never edited once released: a
change to the schema is a new numbered migration.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    MetaData,
    String,
    Table,
    func,
    insert,
    inspect,
    literal,
    select,
    text,
    tuple_,
    update,
)

from flagtui.archive import schema
from flagtui.masking import mask_urls, masked_details, urls_masked

ADVISORY_LOCK = 0x666C6167  # "flag": any constant shared by every flagtui collector


def _v1_tables(conn: Connection) -> None:
    for table in (schema.integrations, schema.deliveries, schema.gaps):
        table.create(conn, checkfirst=True)
    schema.failures_by_time.create(conn, checkfirst=True)
    schema.deliveries_by_time.create(conn, checkfirst=True)


MASKING_BATCH = 500


def _v2_mask_stored_deliveries(conn: Connection) -> None:
    """Deliveries stored before the archive masked them lose their secrets (webhook URLs, body
    templates): the archive keeps what triage needs, and a secret never stays on disk. Read in
    key order, a batch at a time, so a large archive is never held in memory whole."""
    table = schema.deliveries
    key = tuple_(table.c.server, table.c.integration_id, table.c.delivery_id)
    last: tuple[str, int, int] | None = None
    while True:
        query = select(
            table.c.server,
            table.c.integration_id,
            table.c.delivery_id,
            table.c.state_details,
            table.c.event,
            table.c.details,
        ).order_by(table.c.server, table.c.integration_id, table.c.delivery_id)
        if last is not None:
            query = query.where(key > tuple_(*map(literal, last)))
        rows = conn.execute(query.limit(MASKING_BATCH)).all()
        for row in rows:
            masked = {
                "state_details": None
                if row.state_details is None
                else mask_urls(row.state_details),
                "event": urls_masked(row.event),
                "details": masked_details(row.details)
                if isinstance(row.details, dict)
                else row.details,
            }
            if masked != {
                "state_details": row.state_details,
                "event": row.event,
                "details": row.details,
            }:
                conn.execute(
                    update(table)
                    .where(key == tuple_(row.server, row.integration_id, row.delivery_id))
                    .values(masked)
                )
        if len(rows) < MASKING_BATCH:
            return
        last = (rows[-1].server, rows[-1].integration_id, rows[-1].delivery_id)


def _v3_collections(conn: Connection) -> None:
    """The table as released, written out: `schema.collections` may change in a later one."""
    released = Table(
        "collections",
        MetaData(),
        Column("server", String(512), primary_key=True),
        Column("integration_id", BigInteger, primary_key=True, autoincrement=False),
        Column("collected_until", schema.UtcDateTime, nullable=False),
    )
    released.create(conn, checkfirst=True)


MIGRATIONS: list[tuple[int, Callable[[Connection], None]]] = [
    (1, _v1_tables),
    (2, _v2_mask_stored_deliveries),
    (3, _v3_collections),
]
LATEST = MIGRATIONS[-1][0]


class ArchiveTooNew(Exception):
    """The archive was migrated by a newer flagtui than this one."""


def migrate(conn: Connection) -> int:
    """Apply what is missing, in one transaction the caller commits; the version it is at."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
    if not inspect(conn).has_table("schema_version"):
        schema.schema_version.create(conn)
    current = conn.execute(select(func.max(schema.schema_version.c.version))).scalar() or 0
    if current > LATEST:
        raise ArchiveTooNew(
            f"the archive is at schema version {current}; this flagtui knows up to {LATEST}:"
            " upgrade flagtui"
        )
    for version, step in MIGRATIONS:
        if version > current:
            step(conn)
            conn.execute(
                insert(schema.schema_version).values(version=version, applied_at=datetime.now(UTC))
            )
    return max(current, LATEST)
