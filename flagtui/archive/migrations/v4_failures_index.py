"""Migration 4: the failures index in the spelling the queries use (`failed = 1` on SQLite,
`failed = true` on PostgreSQL), where migration 1 as first released wrote `WHERE failed`.

SQLite uses a partial index only when the query's WHERE holds its predicate term for term, so
on an archive of that first form every failures read scanned the table. Archives made after
schema.py changed the predicate (22c2e51) already have this index and are left as they are:
only the first form is dropped and created again.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

NAME = "deliveries_failures_by_time"
COLUMNS = "(server, created_at, integration_id, error_key)"
CREATE = {
    "sqlite": f"CREATE INDEX {NAME} ON deliveries {COLUMNS} WHERE failed = 1",
    "postgresql": f"CREATE INDEX {NAME} ON deliveries {COLUMNS} WHERE failed = true",
}
FIRST_FORM = {  # the predicate as each back end reports it for `WHERE failed`
    "sqlite": f"CREATE INDEX {NAME} ON deliveries {COLUMNS} WHERE failed",
    "postgresql": "failed",
}
REPORTED = {
    "sqlite": text("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = :name"),
    "postgresql": text(
        "SELECT pg_get_expr(indpred, indrelid) FROM pg_index WHERE indexrelid = to_regclass(:name)"
    ),
}


def apply(conn: Connection) -> None:
    dialect = conn.dialect.name
    reported = conn.execute(REPORTED[dialect], {"name": NAME}).scalar()
    if reported == FIRST_FORM[dialect]:
        conn.exec_driver_sql(f"DROP INDEX {NAME}")
        conn.exec_driver_sql(CREATE[dialect])
