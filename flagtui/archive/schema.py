"""The archive's one schema, for SQLite and PostgreSQL alike (SQLAlchemy Core).

Every row carries `server`, the key of the Unleash server it came from (`server_key`), so one
PostgreSQL archive can serve a team's several servers; a SQLite archive holds one server, with
the same column. A delivery is stored once: its key is (server, integration id, delivery id).
`error_key` is `triage.grouping.error_key(state_details)`, stored at insert so grouping is a
GROUP BY; `failed` is `state != 'success'`, stored so failures have their own (partial) index.

The tables are created by the migrations (frozen DDL, `migrations/`), never from here: this is
how the queries see them once the newest migration has run, and tests/archive/test_migrations.py
checks that an archive made by the migrations matches it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    text,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeEngine

from flagtui.archive.micros import from_micros, to_micros


class UtcDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out: `timestamptz` on PostgreSQL, UTC text on SQLite."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = MetaData()

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("applied_at", UtcDateTime, nullable=False),
)

integrations = Table(
    "integrations",
    metadata,
    Column("server", String(512), primary_key=True),
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("provider", String(200), nullable=False),
    Column("description", Text),
    Column("enabled", Boolean, nullable=False),
    Column("deleted_at", UtcDateTime),  # when a poll first found it gone from the server
)


class UtcTime(TypeDecorator[datetime]):
    """A delivery's times (migration 6): microseconds since 1970 on SQLite (`micros`), an
    integer; `timestamptz` on PostgreSQL. Aware UTC datetimes in and out."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(BigInteger())
        return dialect.type_descriptor(DateTime(timezone=True))

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        value = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
        return to_micros(value) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if dialect.name == "sqlite":
            return from_micros(int(value))
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# Each server a delivery came from, named once (migration 6): deliveries and events carry its
# id, where every row and index entry carried the URL.
servers = Table(
    "servers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("url", String(512), nullable=False, unique=True),
)

# A triggering event, stored once for every delivery it caused (one flag change is delivered to
# every integration); `event_id` is the server's, NULL for an event without a numeric one
# (stored once per delivery then).
events = Table(
    "events",
    metadata,
    Column("id", BigInteger().with_variant(Integer(), "sqlite"), primary_key=True),
    Column("server_id", Integer, nullable=False),
    Column("event_id", BigInteger),
    Column("event", JSON),
    Index("events_by_id", "server_id", "event_id", unique=True),
)

deliveries = Table(
    "deliveries",
    metadata,
    Column("server_id", Integer, primary_key=True, autoincrement=False),
    Column("integration_id", BigInteger, primary_key=True, autoincrement=False),
    Column("delivery_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", UtcTime, nullable=False),
    Column("state", String(64), nullable=False),
    Column("failed", Boolean, nullable=False),
    Column("state_details", Text),
    Column("error_key", Text, nullable=False),  # '' for a success: only failures are grouped
    Column("event_row", BigInteger),  # events.id: the triggering event, as the server sent it
    Column("details", JSON),
    Column("collected_at", UtcTime, nullable=False),
    sqlite_with_rowid=False,  # the key is the row's place: no rowid, no second copy of the key
)

gaps = Table(
    "gaps",
    metadata,
    Column("server", String(512), primary_key=True),
    Column("integration_id", BigInteger, primary_key=True, autoincrement=False),
    Column("start", UtcDateTime, primary_key=True),
    Column("end", UtcDateTime, primary_key=True),
    Column("recorded_at", UtcDateTime, nullable=False),
)

# When a collector last read the server (`integration_id` WHOLE_SERVER: every integration of
# one poll) or one integration completely: everything created before `collected_until` that the
# server still held then is in the archive. Added by migration 3.
WHOLE_SERVER = 0  # Unleash numbers integrations from 1
collections = Table(
    "collections",
    metadata,
    Column("server", String(512), primary_key=True),
    Column("integration_id", BigInteger, primary_key=True, autoincrement=False),
    Column("collected_until", UtcDateTime, nullable=False),
)

# Who collects each server into the archive (migration 7): written by the collector that takes
# the server's lock (`lease.py`); `lock_session` is the PostgreSQL session holding it.
collectors = Table(
    "collectors",
    metadata,
    Column("server", String(512), primary_key=True),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("since", UtcDateTime, nullable=False),
    Column("lock_session", Integer),
)

# Failures only, in the one spelling both the index and the queries use: SQLite uses a partial
# index only when the query's WHERE holds its predicate term for term ("failed = 1"), and
# `true()` is written inline (1 or true), never as a bound parameter.
FAILED = deliveries.c.failed == true()

# The failures view: a time window of failures, newest first, counted, grouped by integration
# and error key. Partial (failures only) and covering for all but the page's rows.
failures_by_time = Index(
    "deliveries_failures_by_time",
    deliveries.c.server_id,
    deliveries.c.created_at,
    deliveries.c.integration_id,
    deliveries.c.error_key,
    sqlite_where=FAILED,
    postgresql_where=FAILED,
)

# How far back the archive reaches (`covers_since`), per integration and in all.
deliveries_by_time = Index("deliveries_by_time", deliveries.c.server_id, deliveries.c.created_at)

# SQLite only (migration 5, its predicate made migration 6's integer times'): the failures whose
# time cannot be read (not an integer: a file edited by hand or by another program), counted by
# every answer (`queries.unreadable_times`, whose WHERE holds this predicate term for term); an
# empty index in a sound archive, where testing every failure's time took 0.12 s a million.
UNREADABLE_TIME = "typeof(created_at) != 'integer'"
unreadable_times = Index(
    "deliveries_unreadable_times",
    deliveries.c.server_id,
    sqlite_where=text(f"failed = 1 AND {UNREADABLE_TIME}"),
).ddl_if(dialect="sqlite")
