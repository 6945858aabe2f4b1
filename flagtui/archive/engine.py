"""One SQLAlchemy engine for either back end, and an archive's URL as it may be shown.

SQLite (the default, see `location`): a file 0600 in a 0700 folder (its `-wal` and `-shm`
take the database file's mode), WAL mode, so the TUI reads while a collector writes. A
write transaction takes SQLite's write lock at BEGIN (BEGIN IMMEDIATE): two collectors, or two
processes migrating, then wait for each other instead of failing halfway. PostgreSQL: the profile's
`archive_url`, through psycopg 3.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from flagtui.archive.location import default_archive_dir, engine_url
from flagtui.private_files import FILE_MODE, private_dir, private_file

BUSY_TIMEOUT = 30  # seconds a SQLite writer waits for another
# libpq's: a PostgreSQL that vanished (a host down, a network cut) is found out in about a
# minute, not the system's 2 hours (keepalives) or 15 minutes (data sent, never acknowledged):
# a collector holding the lock (`lease.py`) stops waiting on a dead connection. A URL's own
# settings win.
PG_LIVENESS = {
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "tcp_user_timeout": 60_000,
}


def parse_archive_url(archive_url: str) -> URL:
    """The URL as SQLAlchemy reads it, except that a password holding an unescaped `@` is
    taken whole (the userinfo ends at the last `@` before the query): read SQLAlchemy's way,
    the rest of it would become the host, and be shown. ArgumentError if it is no URL."""
    head, question, query = archive_url.partition("?")
    scheme, _, rest = head.partition("://")
    userinfo, at, host_and_path = rest.rpartition("@")
    if at and ":" in userinfo and not scheme.startswith("sqlite"):
        user, _, password = userinfo.partition(":")
        head = f"{scheme}://{user}:{quote(unquote(password), safe='')}@{host_and_path}"
    return make_url(head + question + query)


def shown_url(archive_url: str) -> str:
    """The URL to print: SQLAlchemy's rendering with the password hidden, and a `password`
    query parameter removed."""
    try:
        url = parse_archive_url(archive_url)
    except ArgumentError:
        return "(an archive_url that is not a URL)"
    return url.difference_update_query(["password"]).render_as_string(hide_password=True)


def create_archive_engine(archive_url: str) -> Engine:
    url = parse_archive_url(engine_url(archive_url))
    if not url.drivername.startswith("sqlite"):
        liveness = {k: v for k, v in PG_LIVENESS.items() if k not in url.query}
        return create_engine(url, pool_pre_ping=True, pool_size=4, connect_args=liveness)
    if url.database and url.database != ":memory:":
        _private_sqlite_file(Path(url.database))
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
    _sqlite_transactions(engine)
    return engine


def _private_sqlite_file(path: Path) -> None:
    """Deliveries carry event data: the file is made 0600 before SQLite opens it (SQLite gives
    its `-wal` and `-shm` the database file's mode), and any left looser by an older flagtui
    tightened. The default folder is flagtui's own (0700); a folder the user named is created
    0700 when missing, and left as it is otherwise."""
    private_dir(path.parent, ours=path.parent == default_archive_dir())
    private_file(path)
    for companion in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if companion.exists():
            companion.chmod(FILE_MODE)


def _into_wal(cursor: sqlite3.Cursor) -> None:
    """A new file leaves rollback mode for WAL only with the file to itself, and SQLite answers
    "database is locked" at once, without its busy wait, when another connection reads it
    meanwhile (processes opening a new archive together): asked again, as that wait would."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.001
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY  # or an extended BUSY_*
            if not busy or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, 0.05)


def _sqlite_transactions(engine: Engine) -> None:
    """SQLAlchemy's documented recipe: the driver leaves transactions to us, we BEGIN."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        _into_wal(cursor)
        # A row rewritten (migration 2 masks old ones) leaves no old bytes in free pages.
        cursor.execute("PRAGMA secure_delete=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # Reads ask for a deferred BEGIN (a snapshot, no lock); everything else writes.
        deferred = conn.get_execution_options().get("read_only", False)
        conn.exec_driver_sql("BEGIN" if deferred else "BEGIN IMMEDIATE")
