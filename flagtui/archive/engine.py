"""One SQLAlchemy engine for either back end.

SQLite (the default, see `location`): WAL mode, so the TUI reads while a collector writes. A
write transaction takes SQLite's write lock at BEGIN (BEGIN IMMEDIATE): two collectors, or two
processes migrating, then wait for each other instead of failing halfway. PostgreSQL: the profile's
`archive_url`, through psycopg 3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event

from flagtui.archive.location import engine_url

BUSY_TIMEOUT = 30  # seconds a SQLite writer waits for another


def create_archive_engine(url: str) -> Engine:
    url = engine_url(url)
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, pool_size=4)
    if url.startswith("sqlite+pysqlite:///") or url.startswith("sqlite:///"):
        # Deliveries carry event data: the folder is the user's alone, like the sandbox's.
        Path(url.split(":///", 1)[1]).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
    _sqlite_transactions(engine)
    return engine


def _sqlite_transactions(engine: Engine) -> None:
    """SQLAlchemy's documented recipe: the driver leaves transactions to us, we BEGIN."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # Reads ask for a deferred BEGIN (a snapshot, no lock); everything else writes.
        deferred = conn.get_execution_options().get("read_only", False)
        conn.exec_driver_sql("BEGIN" if deferred else "BEGIN IMMEDIATE")
