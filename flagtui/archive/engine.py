"""Opening an archive: where it lives, and one SQLAlchemy engine for either back end.

SQLite (the default): one file per server in the user data dir, named from the server's URL
(never its token), in WAL mode so the TUI reads while a collector writes. A write transaction
takes SQLite's write lock at BEGIN (BEGIN IMMEDIATE): two collectors, or two processes
migrating, then wait for each other instead of failing halfway. PostgreSQL: the profile's
`archive_url`, through psycopg 3.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event

BUSY_TIMEOUT = 30  # seconds a SQLite writer waits for another


def server_key(url: str) -> str:
    """The server a URL names, written one way: scheme and host lowercased, no trailing slash."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/")
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}"


def default_archive_path(url: str) -> Path:
    """The SQLite archive of the server at `url`, in the user data dir."""
    key = server_key(url)
    host = re.sub(r"[^a-z0-9.-]+", "-", urlsplit(key).netloc)[:60] or "server"
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return Path(user_data_dir("flagtui", appauthor=False)) / "archive" / f"{host}-{digest}.db"


def engine_url(archive_url: str) -> str:
    """`postgresql://…` as SQLAlchemy names psycopg 3; `sqlite:///…` and others unchanged."""
    for prefix in ("postgresql://", "postgres://"):
        if archive_url.startswith(prefix):
            return "postgresql+psycopg://" + archive_url[len(prefix) :]
    return archive_url


def redacted(archive_url: str) -> str:
    """The URL to show: any password replaced."""
    return re.sub(r"(://[^/:@]*:)[^/@]*@", r"\1***@", archive_url)


def sqlite_url(path: Path) -> str:
    return f"sqlite+pysqlite:///{path}"


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
