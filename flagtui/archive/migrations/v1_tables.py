"""Migration 1 (released in 63dafe1): the integrations, deliveries and gaps tables and the two
indexes on deliveries, as SQLAlchemy 2.0 emitted them from that commit's schema.py.

The failures index's predicate was then `WHERE failed`; a later commit (22c2e51) changed it in
schema.py to `failed = 1` / `failed = true` without a migration, so archives of both forms
exist at version 1. Migration 4 brings the first form to the second.
"""

from __future__ import annotations

from sqlalchemy import Connection

from flagtui.archive.migrations.ddl import Statements, execute, table

_SQLITE = (
    table(
        "integrations",
        "server VARCHAR(512) NOT NULL",
        "id BIGINT NOT NULL",
        "provider VARCHAR(200) NOT NULL",
        "description TEXT",
        "enabled BOOLEAN NOT NULL",
        "deleted_at DATETIME",
        "PRIMARY KEY (server, id)",
    ),
    table(
        "deliveries",
        "server VARCHAR(512) NOT NULL",
        "integration_id BIGINT NOT NULL",
        "delivery_id BIGINT NOT NULL",
        "created_at DATETIME NOT NULL",
        "state VARCHAR(64) NOT NULL",
        "failed BOOLEAN NOT NULL",
        "state_details TEXT",
        "error_key TEXT NOT NULL",
        "event JSON",
        "details JSON",
        "collected_at DATETIME NOT NULL",
        "PRIMARY KEY (server, integration_id, delivery_id)",
    ),
    table(
        "gaps",
        "server VARCHAR(512) NOT NULL",
        "integration_id BIGINT NOT NULL",
        "start DATETIME NOT NULL",
        '"end" DATETIME NOT NULL',
        "recorded_at DATETIME NOT NULL",
        'PRIMARY KEY (server, integration_id, start, "end")',
    ),
    "CREATE INDEX deliveries_failures_by_time ON deliveries"
    " (server, created_at, integration_id, error_key) WHERE failed",
    "CREATE INDEX deliveries_by_time ON deliveries (server, created_at)",
)

_POSTGRESQL = (
    table(
        "integrations",
        "server VARCHAR(512) NOT NULL",
        "id BIGINT NOT NULL",
        "provider VARCHAR(200) NOT NULL",
        "description TEXT",
        "enabled BOOLEAN NOT NULL",
        "deleted_at TIMESTAMP WITH TIME ZONE",
        "PRIMARY KEY (server, id)",
    ),
    table(
        "deliveries",
        "server VARCHAR(512) NOT NULL",
        "integration_id BIGINT NOT NULL",
        "delivery_id BIGINT NOT NULL",
        "created_at TIMESTAMP WITH TIME ZONE NOT NULL",
        "state VARCHAR(64) NOT NULL",
        "failed BOOLEAN NOT NULL",
        "state_details TEXT",
        "error_key TEXT NOT NULL",
        "event JSON",
        "details JSON",
        "collected_at TIMESTAMP WITH TIME ZONE NOT NULL",
        "PRIMARY KEY (server, integration_id, delivery_id)",
    ),
    table(
        "gaps",
        "server VARCHAR(512) NOT NULL",
        "integration_id BIGINT NOT NULL",
        "start TIMESTAMP WITH TIME ZONE NOT NULL",
        '"end" TIMESTAMP WITH TIME ZONE NOT NULL',
        "recorded_at TIMESTAMP WITH TIME ZONE NOT NULL",
        'PRIMARY KEY (server, integration_id, start, "end")',
    ),
    "CREATE INDEX deliveries_failures_by_time ON deliveries"
    " (server, created_at, integration_id, error_key) WHERE failed",
    "CREATE INDEX deliveries_by_time ON deliveries (server, created_at)",
)

STATEMENTS: Statements = {"sqlite": _SQLITE, "postgresql": _POSTGRESQL}


def apply(conn: Connection) -> None:
    execute(conn, STATEMENTS)
