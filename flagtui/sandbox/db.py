"""SQLite schema and connections: WAL, one connection per thread, writes under BEGIN IMMEDIATE.

Nested records that are only ever read whole (tags, variants, constraints, change request
bodies, event payloads) are stored as JSON text; everything that is filtered or sorted on
has a column and an index.

synchronous=NORMAL: a committed write survives a crash or kill -9 of the process (WAL); only
a power loss could drop the last commits.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flagtui.sandbox import schema_later


# Which strategies use which segment, and which context field in a constraint, kept by
# triggers (every writer of strategies, the bulk loads included), so what the segments and the
# context fields list as their usage is counted from an index (real Unleash keeps the segments'
# in its feature_strategy_segment table). `live`: the flag is not archived.
def _usage_links(table: str, column: str, value: str) -> tuple[str, str]:
    """The schema and the backfill of one link table: one row per `value` of each strategy's
    JSON array `column` (`j` is its element)."""
    links = (
        f"SELECT {value}, NEW.id, NEW.feature, f.project, f.archived_at IS NULL"
        f" FROM features f, json_each(NEW.{column}) j WHERE f.name = NEW.feature"
    )
    schema = f"""
CREATE TABLE {table} (
    used TEXT NOT NULL, strategy TEXT NOT NULL, feature TEXT NOT NULL,
    project TEXT, live INTEGER NOT NULL
);
CREATE INDEX {table}_live ON {table} (used, feature, project) WHERE live;
CREATE INDEX {table}_strategy ON {table} (strategy);
CREATE INDEX {table}_feature ON {table} (feature);
CREATE TRIGGER {table}_added AFTER INSERT ON strategies BEGIN
    INSERT INTO {table} {links};
END;
CREATE TRIGGER {table}_changed AFTER UPDATE OF {column}, feature ON strategies BEGIN
    DELETE FROM {table} WHERE strategy = OLD.id;
    INSERT INTO {table} {links};
END;
CREATE TRIGGER {table}_removed AFTER DELETE ON strategies BEGIN
    DELETE FROM {table} WHERE strategy = OLD.id;
END;
CREATE TRIGGER {table}_flag AFTER UPDATE OF archived_at, project ON features BEGIN
    UPDATE {table} SET project = NEW.project, live = NEW.archived_at IS NULL
    WHERE feature = NEW.name;
END;
"""
    backfill = (
        f"INSERT INTO {table} SELECT {value}, s.id, s.feature, f.project, f.archived_at IS NULL"
        f" FROM strategies s JOIN features f ON f.name = s.feature, json_each(s.{column}) j;"
    )
    return schema, backfill


USAGE_LINKS = {
    "strategy_segments": _usage_links("strategy_segments", "segments", "j.value"),
    "strategy_context_fields": _usage_links(
        "strategy_context_fields", "constraints", "json_extract(j.value, '$.contextName')"
    ),
}

# The API tokens' list (`api_tokens`): made, and filled with the sandbox's own, on upgrade.
API_TOKENS = """
CREATE TABLE IF NOT EXISTS api_tokens (
    secret TEXT PRIMARY KEY, token_name TEXT NOT NULL, type TEXT NOT NULL,
    environment TEXT NOT NULL, projects TEXT NOT NULL, created_at TEXT NOT NULL,
    seen_at TEXT, expires_at TEXT
);
INSERT OR IGNORE INTO api_tokens
    SELECT secret, 'sandbox-' || kind, kind, CASE kind WHEN 'admin' THEN '*'
        ELSE substr(secret, 3, instr(secret, '.') - 3) END, '["*"]',
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NULL, NULL
    FROM tokens WHERE kind IN ('admin', 'client');
"""

CONTEXT_FIELDS_TABLE = """
CREATE TABLE context_fields (
    name TEXT PRIMARY KEY, description TEXT, stickiness INTEGER NOT NULL,
    sort_order INTEGER NOT NULL, legal_values TEXT NOT NULL, created_at TEXT
);
"""

SCHEMA = (
    """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tokens (secret TEXT PRIMARY KEY, kind TEXT NOT NULL, user_id INTEGER NOT NULL);
CREATE TABLE users (
    id INTEGER PRIMARY KEY, name TEXT, email TEXT NOT NULL, username TEXT,
    image_url TEXT NOT NULL, root_role INTEGER NOT NULL, created_at TEXT NOT NULL,
    seen_at TEXT, login_attempts INTEGER NOT NULL, email_sent INTEGER NOT NULL,
    account_type TEXT NOT NULL
);
CREATE TABLE roles (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,
    description TEXT NOT NULL, project TEXT
);
CREATE TABLE groups_ (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL,
    root_role INTEGER, created_at TEXT NOT NULL
);
CREATE TABLE group_users (
    group_id INTEGER NOT NULL, user_id INTEGER NOT NULL, PRIMARY KEY (group_id, user_id)
);
CREATE TABLE projects (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL,
    created_at TEXT NOT NULL, health INTEGER NOT NULL, mode TEXT NOT NULL,
    favorite INTEGER NOT NULL
);
CREATE TABLE environments (
    name TEXT PRIMARY KEY, type TEXT NOT NULL, enabled INTEGER NOT NULL,
    sort_order INTEGER NOT NULL, protected INTEGER NOT NULL
);
CREATE TABLE project_environments (
    project TEXT NOT NULL, environment TEXT NOT NULL, PRIMARY KEY (project, environment)
);
CREATE TABLE project_user_roles (
    project TEXT NOT NULL, user_id INTEGER NOT NULL, role_id INTEGER NOT NULL,
    PRIMARY KEY (project, user_id, role_id)
);
CREATE TABLE project_group_roles (
    project TEXT NOT NULL, group_id INTEGER NOT NULL, role_id INTEGER NOT NULL,
    PRIMARY KEY (project, group_id, role_id)
);
CREATE TABLE feature_types (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, lifetime_days INTEGER
);
CREATE TABLE segments (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, description TEXT,
    constraints TEXT NOT NULL, project TEXT, created_by TEXT, created_at TEXT
);
CREATE TABLE features (
    name TEXT PRIMARY KEY, project TEXT NOT NULL, type TEXT NOT NULL, description TEXT,
    stale INTEGER NOT NULL, potentially_stale INTEGER NOT NULL,
    impression_data INTEGER NOT NULL, favorite INTEGER NOT NULL,
    created_at TEXT NOT NULL, created_by INTEGER NOT NULL, archived_at TEXT,
    last_seen_at TEXT, stage TEXT NOT NULL, stage_entered_at TEXT NOT NULL,
    tags TEXT NOT NULL, search_text TEXT NOT NULL,
    parent TEXT, dependency TEXT, collaborators TEXT NOT NULL
);
CREATE INDEX features_project ON features (project, created_at);
CREATE INDEX features_type ON features (type, created_at);
CREATE INDEX features_created ON features (created_at);
CREATE INDEX features_seen ON features (last_seen_at);
CREATE INDEX features_stage ON features (stage, created_at);
CREATE INDEX features_parent ON features (parent);
-- The features area's default view: a project's live features by name, counted and paged.
CREATE INDEX features_live_project_name ON features (project, name) WHERE archived_at IS NULL;
CREATE TABLE lifecycle_stages (
    seq INTEGER PRIMARY KEY, feature TEXT NOT NULL, stage TEXT NOT NULL,
    entered_at TEXT NOT NULL, status TEXT, status_value TEXT
);
CREATE INDEX lifecycle_feature ON lifecycle_stages (feature, seq);
CREATE TABLE feature_environments (
    feature TEXT NOT NULL, environment TEXT NOT NULL, enabled INTEGER NOT NULL,
    last_seen_at TEXT, variants TEXT NOT NULL, PRIMARY KEY (feature, environment)
);
CREATE INDEX feature_environments_env ON feature_environments (environment);
CREATE TABLE strategies (
    id TEXT PRIMARY KEY, feature TEXT NOT NULL, environment TEXT NOT NULL,
    name TEXT NOT NULL, title TEXT NOT NULL, disabled INTEGER NOT NULL,
    sort_order INTEGER NOT NULL, parameters TEXT NOT NULL, constraints TEXT NOT NULL,
    segments TEXT NOT NULL, variants TEXT NOT NULL
);
CREATE INDEX strategies_feature ON strategies (feature, environment, sort_order);
CREATE TABLE change_requests (
    id INTEGER PRIMARY KEY, project TEXT NOT NULL, environment TEXT NOT NULL,
    title TEXT NOT NULL, state TEXT NOT NULL, created_at TEXT NOT NULL,
    created_by INTEGER NOT NULL, min_approvals INTEGER NOT NULL, features TEXT NOT NULL,
    approvals TEXT NOT NULL, rejections TEXT NOT NULL, comments TEXT NOT NULL, schedule TEXT
);
CREATE INDEX change_requests_project ON change_requests (project, id);
CREATE TABLE events (
    id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, type TEXT NOT NULL,
    created_by TEXT NOT NULL, created_by_user_id INTEGER, project TEXT, feature_name TEXT,
    environment TEXT, data TEXT, pre_data TEXT, tags TEXT NOT NULL
);
CREATE INDEX events_type ON events (type, id);
CREATE INDEX events_project ON events (project, id);
CREATE INDEX events_feature ON events (feature_name, id);
CREATE INDEX events_created ON events (created_at);
CREATE TABLE addons (
    id INTEGER PRIMARY KEY, provider TEXT NOT NULL, description TEXT NOT NULL,
    enabled INTEGER NOT NULL, events TEXT NOT NULL, projects TEXT NOT NULL,
    environments TEXT NOT NULL, parameters TEXT NOT NULL, created_at TEXT NOT NULL,
    behaviour TEXT NOT NULL
);
CREATE TABLE integration_events (
    id INTEGER PRIMARY KEY, addon_id INTEGER NOT NULL, created_at TEXT NOT NULL,
    state TEXT NOT NULL, state_details TEXT NOT NULL, event TEXT NOT NULL, details TEXT NOT NULL
);
CREATE INDEX integration_events_addon ON integration_events (addon_id, id);
"""
    + CONTEXT_FIELDS_TABLE
    + "".join(schema for schema, _ in USAGE_LINKS.values())
)


class RawJSON(str):
    """A response body that is already JSON text (sent as it is)."""


# One encoder for every call: json.dumps builds a new one whenever it is given options, a
# third of the time of the large data set's 1.5 million small documents.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(value: Any) -> str:
    return _ENCODER.encode(value)


class Connection(sqlite3.Connection):
    """A connection that can keep data which never changes while the server runs (addons)."""

    cached: dict[str, Any]
    forgets_deliveries: bool  # real Unleash's retention rule (integrations.forget_deliveries)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cached = {}
        self.forgets_deliveries = True


PRIVATE = 0o600


def _private(path: Path | str) -> None:
    """The database holds the sandbox's tokens: the file is created 0600 before SQLite opens
    it (SQLite gives its -wal and -shm the database file's mode), and tightened, with them, if
    it was given looser. (The sandbox imports nothing of flagtui: its own few lines.)"""
    if str(path) in ("", ":memory:"):
        return
    # Only a missing file is opened here: closing any descriptor of an open database drops
    # every SQLite lock this process holds on it (POSIX locks), other threads' included.
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, PRIVATE))
    for name in (str(path), f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(FileNotFoundError):
            if stat.S_IMODE(os.stat(name).st_mode) != PRIVATE:
                os.chmod(name, PRIVATE)


def connect(path: Path | str) -> sqlite3.Connection:
    _private(path)
    # Autocommit mode: transactions are opened explicitly (BEGIN / BEGIN IMMEDIATE).
    conn = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, timeout=30, factory=Connection
    )
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("PRAGMA foreign_keys=OFF")
    conn.create_function("icontains", 2, _icontains, deterministic=True)
    return conn


def _icontains(haystack: str | None, needle: str) -> int:
    """Unicode-aware case-insensitive containment (SQLite's LIKE folds ASCII only)."""
    return int(haystack is not None and needle.casefold() in haystack.casefold())


class Database:
    """One SQLite file; each thread gets (and keeps) its own connection."""

    def __init__(self, path: Path | str, *, keep_all_deliveries: bool = False) -> None:
        self.path = Path(path)
        self.keep_all_deliveries = keep_all_deliveries
        self._local = threading.local()
        # Event counts by filter, keyed with the newest event id (events are append-only).
        self.count_cache: dict[tuple[Any, ...], int] = {}
        # Called after a token is created or deleted: the app reads its tokens again.
        self.tokens_changed: Callable[[], None] = lambda: None

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            if isinstance(conn, Connection):
                conn.forgets_deliveries = not self.keep_all_deliveries
            self._local.conn = conn
        return conn

    def upgrade(self, seed_context_fields: Callable[[sqlite3.Connection], None]) -> None:
        """Add what databases made by an older sandbox lack (the usage links, `schema_later`; the
        context fields, which were fixed, given the fixed ones by `seed_context_fields`; the API
        tokens' list)."""
        conn = self.connection()
        conn.executescript(f"BEGIN IMMEDIATE; {API_TOKENS} COMMIT;")
        table = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'context_fields'"
        if conn.execute(table).fetchone() is None:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(CONTEXT_FIELDS_TABLE)
            seed_context_fields(conn)
            conn.execute("COMMIT")
        columns = {r[1] for r in conn.execute("SELECT * FROM pragma_table_info('segments')")}
        for added in ("project", "created_by", "created_at"):  # before segments were written
            if added not in columns:
                conn.execute(f"ALTER TABLE segments ADD COLUMN {added} TEXT")
        for table, (schema, backfill) in USAGE_LINKS.items():
            current = "SELECT 1 FROM pragma_table_info(?) WHERE name = 'used'"
            if conn.execute(current, (table,)).fetchone() is None:  # none, or an earlier one
                dropped = "".join(
                    f"DROP TRIGGER IF EXISTS {table}_{t};"
                    for t in ("added", "changed", "removed", "flag")
                )
                conn.executescript(
                    f"BEGIN IMMEDIATE; {dropped} DROP TABLE IF EXISTS {table};"
                    f" {schema} {backfill} COMMIT;"
                )
        schema_later.upgrade(conn)

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot for a multi-query read."""
        conn = self.connection()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, committed (and durable) before the response is sent."""
        conn = self.connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
