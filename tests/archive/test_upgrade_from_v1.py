"""An archive made by the first release (schema version 1, its DDL kept below as data, word for
word as SQLAlchemy emitted it from that release's schema.py) and filled then, opened by today's
flagtui: it ends at the schema a fresh archive gets, which is what schema.py describes, its rows
kept, and the secrets stored before masking masked by migration 2's rules as released."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, inspect, select, text

from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine
from flagtui.archive.migrations import LATEST
from flagtui.archive.store import Archive

SERVER = "http://unleash.example:4242"
SECRET_URL = "https://bot:pa55w0rd@hooks.example.com/services/T0PATHs3cr3t?token=q5ecretvalue"
# Migration 2's rules as released: scheme and host kept, the rest masked.
MASKED_URL = "https://•••••@hooks.example.com/•••••?token=•••••"
CREATED = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)

# -- schema version 1 as released (63dafe1) ---------------------------------------------------
# The failures index said `WHERE failed` then; from 22c2e51 on, migration 1 created it as
# `failed = 1` / `failed = true` instead: archives of both forms exist at version 1.
FIRST_INDEX = "WHERE failed"
LATER_INDEX = {"sqlite": "WHERE failed = 1", "postgresql": "WHERE failed = true"}
SQLITE_V1 = [
    "CREATE TABLE schema_version (\n"
    "\tversion INTEGER NOT NULL, \n"
    "\tapplied_at DATETIME NOT NULL, \n"
    "\tPRIMARY KEY (version)\n"
    ")",
    "CREATE TABLE integrations (\n"
    "\tserver VARCHAR(512) NOT NULL, \n"
    "\tid BIGINT NOT NULL, \n"
    "\tprovider VARCHAR(200) NOT NULL, \n"
    "\tdescription TEXT, \n"
    "\tenabled BOOLEAN NOT NULL, \n"
    "\tdeleted_at DATETIME, \n"
    "\tPRIMARY KEY (server, id)\n"
    ")",
    "CREATE TABLE deliveries (\n"
    "\tserver VARCHAR(512) NOT NULL, \n"
    "\tintegration_id BIGINT NOT NULL, \n"
    "\tdelivery_id BIGINT NOT NULL, \n"
    "\tcreated_at DATETIME NOT NULL, \n"
    "\tstate VARCHAR(64) NOT NULL, \n"
    "\tfailed BOOLEAN NOT NULL, \n"
    "\tstate_details TEXT, \n"
    "\terror_key TEXT NOT NULL, \n"
    "\tevent JSON, \n"
    "\tdetails JSON, \n"
    "\tcollected_at DATETIME NOT NULL, \n"
    "\tPRIMARY KEY (server, integration_id, delivery_id)\n"
    ")",
    "CREATE TABLE gaps (\n"
    "\tserver VARCHAR(512) NOT NULL, \n"
    "\tintegration_id BIGINT NOT NULL, \n"
    "\tstart DATETIME NOT NULL, \n"
    '\t"end" DATETIME NOT NULL, \n'
    "\trecorded_at DATETIME NOT NULL, \n"
    '\tPRIMARY KEY (server, integration_id, start, "end")\n'
    ")",
    "CREATE INDEX deliveries_failures_by_time ON deliveries"
    " (server, created_at, integration_id, error_key) {where}",
    "CREATE INDEX deliveries_by_time ON deliveries (server, created_at)",
]
POSTGRESQL_V1 = [
    statement.replace("DATETIME", "TIMESTAMP WITH TIME ZONE") for statement in SQLITE_V1
]
RELEASED_V1 = {"sqlite": SQLITE_V1, "postgresql": POSTGRESQL_V1}

# Rows as the first release stored them: in clear (it did not mask yet), times as UTC text.
ROWS = [
    "INSERT INTO schema_version VALUES (1, :created)",
    "INSERT INTO integrations VALUES (:server, 1, 'webhook', 'ops hook', :yes, NULL)",
    "INSERT INTO deliveries VALUES (:server, 1, 41, :created, 'failed', :yes, :state_details,"
    " :error_key, :event, :details, :created)",
    "INSERT INTO deliveries VALUES (:server, 1, 42, :created, 'success', :no, NULL, '',"
    " NULL, NULL, :created)",
    "INSERT INTO gaps VALUES (:server, 1, :created, :created, :created)",
]
VALUES = {
    "server": SERVER,
    "yes": True,
    "no": False,
    "state_details": f"Webhook request to {SECRET_URL} failed with status code: 503",
    "error_key": "Webhook request to <url> failed with status code: 503",
    "event": f'{{"id": 7, "type": "feature-updated", "data": {{"link": "{SECRET_URL}"}}}}',
    "details": f'{{"url": "{SECRET_URL}", "body": "{{\\"auth\\": \\"b0dys3cr3t\\"}}"}}',
}


def released_v1(url: str, index: str) -> None:
    """An archive at schema version 1 with an integration, a failed delivery carrying secrets,
    a successful one and a gap, made as the released code made it."""
    engine = create_archive_engine(url)
    try:
        with engine.begin() as conn:
            dialect = conn.dialect.name
            for statement in RELEASED_V1[dialect]:
                conn.exec_driver_sql(statement.format(where=index))
            created: Any = CREATED
            if dialect == "sqlite":
                created = CREATED.replace(tzinfo=None).isoformat(" ", "microseconds")
            for statement in ROWS:
                conn.execute(text(statement), VALUES | {"created": created})
    finally:
        engine.dispose()


def described(engine: Engine) -> dict[str, Any]:
    """Tables, their columns (type as the back end names it, nullability), primary keys and
    indexes (columns, uniqueness, predicate): what a migration may change."""
    with engine.connect() as conn:
        found = inspect(conn)
        return {
            name: {
                "columns": [
                    (c["name"], c["type"].compile(dialect=conn.dialect), c["nullable"])
                    for c in found.get_columns(name)
                ],
                "primary key": found.get_pk_constraint(name)["constrained_columns"],
                "indexes": sorted(
                    (
                        i["name"],
                        tuple(i["column_names"]),
                        bool(i["unique"]),
                        sorted(str(v) for v in i.get("dialect_options", {}).values()),
                    )
                    for i in found.get_indexes(name)
                ),
            }
            for name in sorted(found.get_table_names())
        }


def schema_of(url: str) -> dict[str, Any]:
    engine = create_archive_engine(url)
    try:
        return described(engine)
    finally:
        engine.dispose()


def fresh(url: str) -> dict[str, Any]:
    Archive.open(url, SERVER).close()
    return schema_of(url)


def rows(conn: Connection, table: str) -> list[Any]:
    return list(conn.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2, 3")).mappings())


@pytest.mark.parametrize("index", ["first", "later"])
def test_an_archive_of_schema_version_1_upgrades_to_a_fresh_one(
    archive_url, another_archive_url, index
):
    dialect = "sqlite" if archive_url.startswith("sqlite") else "postgresql"
    released_v1(archive_url, FIRST_INDEX if index == "first" else LATER_INDEX[dialect])

    archive = Archive.open(archive_url, SERVER)
    try:
        assert archive.version == LATEST
        assert archive.newest_stored([1]) == {1: (42, CREATED)}
    finally:
        archive.close()

    assert schema_of(archive_url) == fresh(another_archive_url)
    engine = create_archive_engine(archive_url)
    try:
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version FROM schema_version ORDER BY 1"))
            assert list(versions.scalars()) == list(range(1, LATEST + 1))
            integrations = rows(conn, "integrations")
            assert [(r["id"], r["description"]) for r in integrations] == [(1, "ops hook")]
            assert len(rows(conn, "gaps")) == 1
            table, events = schema.deliveries, schema.events
            failed, succeeded = conn.execute(
                select(table, events.c.event)
                .select_from(table.outerjoin(events, events.c.id == table.c.event_row))
                .order_by(table.c.delivery_id)
            ).mappings()
        assert failed["state_details"] == (
            f"Webhook request to {MASKED_URL} failed with status code: 503"
        )
        assert failed["event"] == {"id": 7, "type": "feature-updated", "data": {"link": MASKED_URL}}
        assert failed["details"] == {"url": MASKED_URL, "body": "•••••"}
        assert (failed["created_at"], failed["failed"]) == (CREATED, True)
        assert (succeeded["delivery_id"], succeeded["failed"]) == (42, False)
        assert succeeded["event"] is None
    finally:
        engine.dispose()


def test_the_migrations_make_what_schema_py_describes(archive_url, another_archive_url):
    """The guard for the next migration: a change to schema.py without one (or the reverse)
    fails here."""
    engine = create_archive_engine(another_archive_url)
    try:
        with engine.begin() as conn:
            schema.metadata.create_all(conn)
        described_by_schema_py = described(engine)
    finally:
        engine.dispose()
    assert fresh(archive_url) == described_by_schema_py


def test_failures_reads_use_the_failures_index_after_the_upgrade(tmp_path):
    """The first form of the index (`WHERE failed`) is never used by SQLite for the queries'
    `failed = 1`: migration 4 replaces it."""
    url = f"sqlite:///{tmp_path / 'archive.db'}"
    released_v1(url, FIRST_INDEX)
    Archive.open(url, SERVER).close()
    engine = create_archive_engine(url)
    try:
        with engine.connect() as conn:
            plan = conn.exec_driver_sql(  # SQLite refuses INDEXED BY an index that cannot serve
                "EXPLAIN QUERY PLAN SELECT count(*) FROM deliveries"
                " INDEXED BY deliveries_failures_by_time WHERE server_id = 1 AND failed = 1"
            ).all()
    finally:
        engine.dispose()
    assert "deliveries_failures_by_time" in " ".join(str(row[-1]) for row in plan)
