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

from sqlalchemy import Connection, func, insert, inspect, select, text

from flagtui.archive import schema

ADVISORY_LOCK = 0x666C6167  # "flag": any constant shared by every flagtui collector


def _v1_tables(conn: Connection) -> None:
    for table in (schema.integrations, schema.deliveries, schema.gaps):
        table.create(conn, checkfirst=True)
    schema.failures_by_time.create(conn, checkfirst=True)
    schema.deliveries_by_time.create(conn, checkfirst=True)


def _v2_collections(conn: Connection) -> None:
    schema.collections.create(conn, checkfirst=True)


MIGRATIONS: list[tuple[int, Callable[[Connection], None]]] = [
    (1, _v1_tables),
    (2, _v2_collections),
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
