"""Migration 7: the collectors table, who collects each server into the archive (host, pid,
since; on PostgreSQL the session holding the collector's advisory lock), written by the
collector that takes the lock (`archive/lease.py`)."""

from __future__ import annotations

from sqlalchemy import Connection

from flagtui.archive.migrations.ddl import Statements, execute, table

STATEMENTS: Statements = {
    "sqlite": (
        table(
            "collectors",
            "server VARCHAR(512) NOT NULL",
            "host VARCHAR(255) NOT NULL",
            "pid INTEGER NOT NULL",
            "since DATETIME NOT NULL",
            "lock_session INTEGER",
            "PRIMARY KEY (server)",
        ),
    ),
    "postgresql": (
        table(
            "collectors",
            "server VARCHAR(512) NOT NULL",
            "host VARCHAR(255) NOT NULL",
            "pid INTEGER NOT NULL",
            "since TIMESTAMP WITH TIME ZONE NOT NULL",
            "lock_session INTEGER",
            "PRIMARY KEY (server)",
        ),
    ),
}


def apply(conn: Connection) -> None:
    execute(conn, STATEMENTS)
