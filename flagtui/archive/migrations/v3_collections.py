"""Migration 3 (released in e72e63e as migration 2, renumbered 3 at the merge d89329e, before
any release of it): the collections table, when a collector last read a server (or one
integration) completely."""

from __future__ import annotations

from sqlalchemy import Connection

from flagtui.archive.migrations.ddl import Statements, execute, table

STATEMENTS: Statements = {
    "sqlite": (
        table(
            "collections",
            "server VARCHAR(512) NOT NULL",
            "integration_id BIGINT NOT NULL",
            "collected_until DATETIME NOT NULL",
            "PRIMARY KEY (server, integration_id)",
        ),
    ),
    "postgresql": (
        table(
            "collections",
            "server VARCHAR(512) NOT NULL",
            "integration_id BIGINT NOT NULL",
            "collected_until TIMESTAMP WITH TIME ZONE NOT NULL",
            "PRIMARY KEY (server, integration_id)",
        ),
    ),
}


def apply(conn: Connection) -> None:
    execute(conn, STATEMENTS)
