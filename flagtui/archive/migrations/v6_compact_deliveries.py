"""Migration 6: a million deliveries in about a quarter of the space (477 MB on SQLite before).

- Each server's URL is stored once (`servers`); deliveries carry its integer id, where every
  row and every index entry carried the URL.
- A triggering event is stored once (`events`), however many deliveries it caused (one flag
  change is delivered to every integration): deliveries carry the event's row. An event
  without a numeric id, or (SQLite) one whose JSON cannot be read, gets a row of its own.
  Deliveries of one event that stored different texts of it keep the oldest delivery's.
- SQLite: a delivery's times are microseconds since 1970, an integer; a time that could not
  be read before stays the text it was (still unreadable). The table has no rowid (its key
  is where the row lives), and the unreadable-times index (migration 5) tests for a time that
  is not an integer.
- A success's `error_key` is '' (only failures are grouped by it).

The deliveries table is made again under its name and the rows copied, in one transaction;
its indexes are made once the rows are in. Every statement is here as it was released.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

from flagtui.archive.migrations.ddl import Statements, execute, table

# A readable time (SQLAlchemy's text, "2026-11-26 12:00:00.000000") as microseconds.
_MICROS = (
    "CASE WHEN (strftime('%Y-%m-%d %H:%M:%S', {t}) IS substr({t}, 1, 19))"
    " THEN CAST(strftime('%s', substr({t}, 1, 19)) AS INTEGER) * 1000000"
    " + CASE WHEN substr({t}, 20, 1) = '.'"
    " THEN CAST(substr(substr({t}, 21) || '000000', 1, 6) AS INTEGER) ELSE 0 END"
    " ELSE {t} END"
)
_SQLITE_EVENT_ID = (
    "CASE WHEN json_valid(d.event) AND json_type(d.event, '$.id') = 'integer'"
    " THEN json_extract(d.event, '$.id') END"
)
_PG_EVENT_ID = "CASE WHEN (d.event->>'id') ~ '^[0-9]{1,18}$' THEN (d.event->>'id')::bigint END"

_SQLITE = (
    table(
        "servers",
        "id INTEGER NOT NULL",
        "url VARCHAR(512) NOT NULL",
        "PRIMARY KEY (id)",
        "UNIQUE (url)",
    ),
    "INSERT INTO servers (url) SELECT DISTINCT server FROM deliveries ORDER BY server",
    table(
        "events",
        "id INTEGER NOT NULL",
        "server_id INTEGER NOT NULL",
        "event_id BIGINT",
        "event JSON",
        "PRIMARY KEY (id)",
    ),
    "CREATE UNIQUE INDEX events_by_id ON events (server_id, event_id)",
    "INSERT OR IGNORE INTO events (server_id, event_id, event)"
    f" SELECT s.id, {_SQLITE_EVENT_ID}, d.event"
    " FROM deliveries d JOIN servers s ON s.url = d.server"
    f" WHERE {_SQLITE_EVENT_ID} IS NOT NULL ORDER BY d.server, d.delivery_id",
    "ALTER TABLE deliveries RENAME TO deliveries_v5",
    table(
        "deliveries",
        "server_id INTEGER NOT NULL",
        "integration_id BIGINT NOT NULL",
        "delivery_id BIGINT NOT NULL",
        "created_at BIGINT NOT NULL",
        "state VARCHAR(64) NOT NULL",
        "failed BOOLEAN NOT NULL",
        "state_details TEXT",
        "error_key TEXT NOT NULL",
        "event_row BIGINT",
        "details JSON",
        "collected_at BIGINT NOT NULL",
        "PRIMARY KEY (server_id, integration_id, delivery_id)",
    )
    + " WITHOUT ROWID",
    "INSERT INTO deliveries SELECT s.id, d.integration_id, d.delivery_id,"
    f" {_MICROS.format(t='d.created_at')}, d.state, d.failed, d.state_details,"
    " CASE WHEN d.failed THEN d.error_key ELSE '' END,"
    f" (SELECT e.id FROM events e WHERE e.server_id = s.id AND e.event_id = {_SQLITE_EVENT_ID}),"
    f" d.details, {_MICROS.format(t='d.collected_at')}"
    " FROM deliveries_v5 d JOIN servers s ON s.url = d.server"
    " ORDER BY s.id, d.integration_id, d.delivery_id",
)
_SQLITE_INDEXES = (
    "CREATE INDEX deliveries_failures_by_time ON deliveries"
    " (server_id, created_at, integration_id, error_key) WHERE failed = 1",
    "CREATE INDEX deliveries_by_time ON deliveries (server_id, created_at)",
    "CREATE INDEX deliveries_unreadable_times ON deliveries (server_id)"
    " WHERE failed = 1 AND typeof(created_at) != 'integer'",
)

_POSTGRESQL = (
    table(
        "servers",
        "id SERIAL NOT NULL",
        "url VARCHAR(512) NOT NULL",
        "PRIMARY KEY (id)",
        "UNIQUE (url)",
    ),
    "INSERT INTO servers (url) SELECT DISTINCT server FROM deliveries ORDER BY server",
    table(
        "events",
        "id BIGSERIAL NOT NULL",
        "server_id INTEGER NOT NULL",
        "event_id BIGINT",
        "event JSON",
        "PRIMARY KEY (id)",
    ),
    "CREATE UNIQUE INDEX events_by_id ON events (server_id, event_id)",
    "INSERT INTO events (server_id, event_id, event)"
    f" SELECT DISTINCT ON (s.id, {_PG_EVENT_ID}) s.id, {_PG_EVENT_ID}, d.event"
    " FROM deliveries d JOIN servers s ON s.url = d.server"
    f" WHERE {_PG_EVENT_ID} IS NOT NULL ORDER BY s.id, {_PG_EVENT_ID}, d.delivery_id",
    "ALTER TABLE deliveries RENAME TO deliveries_v5",
    "ALTER INDEX deliveries_pkey RENAME TO deliveries_v5_pkey",
    table(
        "deliveries",
        "server_id INTEGER NOT NULL",
        "integration_id BIGINT NOT NULL",
        "delivery_id BIGINT NOT NULL",
        "created_at TIMESTAMP WITH TIME ZONE NOT NULL",
        "state VARCHAR(64) NOT NULL",
        "failed BOOLEAN NOT NULL",
        "state_details TEXT",
        "error_key TEXT NOT NULL",
        "event_row BIGINT",
        "details JSON",
        "collected_at TIMESTAMP WITH TIME ZONE NOT NULL",
        "PRIMARY KEY (server_id, integration_id, delivery_id)",
    ),
    "INSERT INTO deliveries SELECT s.id, d.integration_id, d.delivery_id, d.created_at,"
    " d.state, d.failed, d.state_details, CASE WHEN d.failed THEN d.error_key ELSE '' END,"
    " e.id, d.details, d.collected_at"
    " FROM deliveries_v5 d JOIN servers s ON s.url = d.server"
    f" LEFT JOIN events e ON e.server_id = s.id AND e.event_id = {_PG_EVENT_ID}",
)
_POSTGRESQL_INDEXES = (
    "CREATE INDEX deliveries_failures_by_time ON deliveries"
    " (server_id, created_at, integration_id, error_key) WHERE failed = true",
    "CREATE INDEX deliveries_by_time ON deliveries (server_id, created_at)",
)

STATEMENTS: Statements = {"sqlite": _SQLITE, "postgresql": _POSTGRESQL}
INDEXES: Statements = {"sqlite": _SQLITE_INDEXES, "postgresql": _POSTGRESQL_INDEXES}

# Deliveries whose event could not be shared (no numeric id; on SQLite, JSON it cannot read):
# each gets an events row of its own, the text as it was.
_UNSHARED = {
    "sqlite": f"SELECT s.id, d.integration_id, d.delivery_id, CAST(d.event AS TEXT)"
    " FROM deliveries_v5 d JOIN servers s ON s.url = d.server"
    f" WHERE d.event IS NOT NULL AND {_SQLITE_EVENT_ID} IS NULL",
    "postgresql": "SELECT s.id, d.integration_id, d.delivery_id, CAST(d.event AS TEXT)"
    " FROM deliveries_v5 d JOIN servers s ON s.url = d.server"
    f" WHERE d.event IS NOT NULL AND {_PG_EVENT_ID} IS NULL",
}
_OWN_EVENT = text(
    "INSERT INTO events (server_id, event_id, event) VALUES (:server, NULL, :event) RETURNING id"
)
_POINT = text(
    "UPDATE deliveries SET event_row = :row"
    " WHERE server_id = :server AND integration_id = :integration AND delivery_id = :delivery"
)


def apply(conn: Connection) -> None:
    dialect = conn.dialect.name
    execute(conn, STATEMENTS)
    for server, integration, delivery, event in conn.exec_driver_sql(_UNSHARED[dialect]).all():
        row = conn.execute(_OWN_EVENT, {"server": server, "event": event}).scalar_one()
        values = {"row": row, "server": server, "integration": integration, "delivery": delivery}
        conn.execute(_POINT, values)
    conn.exec_driver_sql("DROP TABLE deliveries_v5")
    execute(conn, INDEXES)
