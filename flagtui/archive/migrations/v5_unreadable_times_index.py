"""Migration 5: on SQLite, an index of the failures whose time cannot be read (a `created_at`
that is not the text SQLAlchemy writes: a file edited by hand or by another program), so the
count every answer gives of them (`queries.unreadable_times`) reads an index that is empty in
a sound archive, instead of testing the time of every failure stored (0.12 s or more on a
million deliveries). Its predicate is the query's, term for term, as SQLite requires to use a
partial index. PostgreSQL's timestamptz holds nothing else than a time: nothing to do there.
"""

from __future__ import annotations

from sqlalchemy import Connection

from flagtui.archive.migrations.ddl import Statements, execute

STATEMENTS: Statements = {
    "sqlite": (
        "CREATE INDEX deliveries_unreadable_times ON deliveries (server)"
        " WHERE failed = 1"
        " AND NOT (strftime('%Y-%m-%d %H:%M:%S', created_at) IS substr(created_at, 1, 19))",
    ),
    "postgresql": (),
}


def apply(conn: Connection) -> None:
    execute(conn, STATEMENTS)
