"""The archive's reads on a SQLite file with the standard library's sqlite3: `queries` in plain
SQL, for the failures view and `flagtui failures`, which then never import SQLAlchemy (about
0.3 s of a command's start, where the reads themselves take milliseconds). Each function has
the signature and the answer of its namesake in `queries` (PostgreSQL, and the writes, keep
SQLAlchemy). The SQL is the text SQLAlchemy renders for those queries on SQLite, so both use
the same indexes (a partial index only serves a WHERE that holds its predicate term for term).
The failures' reads name their index (INDEXED BY): an archive has no statistics (ANALYZE), and
without them SQLite reads every row of the server by its key instead (0.35 s a million).

The file is read as SQLAlchemy wrote it: a delivery's times as microseconds since 1970
(`schema.UtcTime`), other times as UTC text ("2026-11-26 12:00:00.000000"), booleans as 0/1,
JSON as text. `open_current` opens it only when it is at the newest schema
version (`version.LATEST`); an older one is migrated through SQLAlchemy first, once.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flagtui.archive.micros import from_micros, to_micros
from flagtui.archive.read_rows import bucket_counts, integration_ref, newest_groups
from flagtui.archive.stored import archived_delivery
from flagtui.archive.version import LATEST
from flagtui.triage.records import Failure, FailureGroup, Gap, IntegrationRef

BUSY_TIMEOUT = 30  # seconds, as the engine's (engine.py): a collector's write may hold the lock
WHOLE_SERVER = 0  # schema.WHOLE_SERVER
READABLE = "(typeof(created_at) = 'integer')"
UNREADABLE = "typeof(created_at) != 'integer'"  # the unreadable-times index's, with `failed = 1`
OF_SERVER = "server_id = (SELECT id FROM servers WHERE url = ?)"
FAILURES = "INDEXED BY deliveries_failures_by_time"  # see the module's docstring
_TIME = re.compile(r"(\d+)-(\d+)-(\d+)(?: (\d+):(\d+):(\d+)(?:\.(\d{1,6}))?)?")


class NotCurrent(Exception):
    """The file is not an archive at the newest schema version (older, newer, not one at all):
    it is opened through SQLAlchemy instead, which migrates it or says why it cannot."""


def sqlite_path(archive_url: str) -> Path | None:
    """The file of a plain `sqlite:///…` URL; None for anything else (PostgreSQL, memory, a URL
    with a query or escapes), which SQLAlchemy reads."""
    scheme, sep, rest = archive_url.partition(":///")
    if not sep or scheme not in ("sqlite", "sqlite+pysqlite") or not rest:
        return None
    if any(c in rest for c in "?%") or rest == ":memory:":
        return None
    return Path(rest)


def open_current(path: Path) -> sqlite3.Connection:
    """A connection to the archive at `path`, which exists and is at schema version `LATEST`;
    `NotCurrent` otherwise (nothing created)."""
    if not path.is_file():
        raise NotCurrent(f"{path} does not exist")
    # Used from the worker threads of `asyncio.to_thread`, one read at a time (ArchiveSource).
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000}")
        conn.execute("PRAGMA query_only=ON")
        found = conn.execute("SELECT max(version) FROM schema_version").fetchone()[0]
    except sqlite3.Error as exc:
        conn.close()
        raise NotCurrent(str(exc)) from None
    if found != LATEST:
        conn.close()
        raise NotCurrent(f"schema version {found}, not {LATEST}")
    return conn


@contextlib.contextmanager
def reading(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One snapshot for all of an answer's reads (a deferred transaction, no lock)."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")


def _time(text: Any) -> datetime:
    """A stored time (not a delivery's) as SQLAlchemy's SQLite DateTime reads it, aware (UTC)."""
    found = _TIME.match(text) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"not a time: {text!r}")
    y, mo, d, h, mi, s, micro = found.groups()
    hour, minute, second = (int(x or 0) for x in (h, mi, s))
    fraction = int((micro or "0").ljust(6, "0"))
    return datetime(int(y), int(mo), int(d), hour, minute, second, fraction, tzinfo=UTC)


def _maybe_time(text: Any) -> datetime | None:
    return None if text is None else _time(text)


def _bound(moment: datetime) -> str:
    """A time as SQLAlchemy binds it on SQLite: naive UTC text, microseconds always."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def integrations(conn: sqlite3.Connection, server: str) -> list[IntegrationRef]:
    rows = conn.execute(
        "SELECT id, provider, description, enabled, deleted_at FROM integrations"
        " WHERE server = ? ORDER BY id",
        (server,),
    )
    return [
        IntegrationRef(i, provider, description, bool(enabled), deleted is not None)
        for i, provider, description, enabled, deleted in rows
    ]


def _failures_where(
    server: str, since: datetime | None, integration_id: int | None, key: str | None
) -> tuple[str, list[Any]]:
    clauses = [OF_SERVER, "failed = 1", READABLE]
    values: list[Any] = [server]
    if since is not None:
        clauses.append("created_at >= ?")
        values.append(to_micros(since))
    if integration_id is not None:
        clauses.append("integration_id = ?")
        values.append(integration_id)
    if key is not None:
        clauses.append("error_key = ?")
        values.append(key)
    return " AND ".join(clauses), values


def failures(
    conn: sqlite3.Connection,
    server: str,
    refs: dict[int, IntegrationRef],
    since: datetime | None,
    integration_id: int | None,
    key: str | None,
    limit: int,
) -> tuple[list[Failure], int, int]:
    """As `queries.failures`: the newest `limit` readable failures, the window's count, and how
    many of the page were unreadable."""
    where, values = _failures_where(server, since, integration_id, key)
    rows = conn.execute(
        "SELECT d.integration_id, d.delivery_id, d.created_at, d.state, d.state_details,"
        " CAST(e.event AS TEXT), CAST(d.details AS TEXT) FROM"
        " (SELECT integration_id, delivery_id, created_at, state, state_details, event_row,"
        f" details FROM deliveries {FAILURES} WHERE {where}"
        " ORDER BY created_at DESC, delivery_id DESC"
        " LIMIT ?) AS d LEFT OUTER JOIN events e ON e.id = d.event_row"
        " ORDER BY d.created_at DESC, d.delivery_id DESC",
        [*values, limit],
    ).fetchall()
    total = conn.execute(f"SELECT count(*) FROM deliveries {FAILURES} WHERE {where}", values)
    total = total.fetchone()[0]
    found = []
    for integration_id_, delivery_id, created, state, state_details, event, details in rows:
        with contextlib.suppress(ValueError):  # JSONDecodeError included
            delivery = archived_delivery(
                delivery_id,
                integration_id_,
                from_micros(created),
                state,
                state_details,
                None if event is None else json.loads(event),
                None if details is None else json.loads(details),
            )
            found.append(Failure(integration_ref(refs, integration_id_), delivery, "archive"))
    return found, total, len(rows) - len(found)


def unreadable_times(conn: sqlite3.Connection, server: str) -> int:
    """As `queries.unreadable_times` (migration 5's index answers it)."""
    return int(
        conn.execute(
            "SELECT count(*) FROM deliveries INDEXED BY deliveries_unreadable_times"
            f" WHERE {OF_SERVER} AND failed = 1 AND {UNREADABLE}",
            (server,),
        ).fetchone()[0]
    )


def groups(
    conn: sqlite3.Connection,
    server: str,
    refs: dict[int, IntegrationRef],
    since: datetime | None,
    integration_id: int | None = None,
) -> tuple[list[FailureGroup], int]:
    where, values = _failures_where(server, since, integration_id, None)
    rows = conn.execute(
        "SELECT integration_id, error_key, count(*), min(created_at), max(created_at),"
        f" max(state_details) FROM deliveries {FAILURES} WHERE {where}"
        " GROUP BY integration_id, error_key",
        values,
    ).fetchall()
    found = [
        FailureGroup(
            integration_ref(refs, i),
            key,
            example or "",
            count,
            from_micros(first),
            from_micros(last),
        )
        for i, key, count, first, last, example in rows
    ]
    return newest_groups(found)


def gaps(
    conn: sqlite3.Connection, server: str, since: datetime | None, integration_id: int | None
) -> list[Gap]:
    query = 'SELECT integration_id, start, "end" FROM gaps WHERE server = ?'
    values: list[Any] = [server]
    if since is not None:
        query += ' AND "end" >= ?'
        values.append(_bound(since))
    if integration_id is not None:
        query += " AND integration_id = ?"
        values.append(integration_id)
    rows = conn.execute(query + " ORDER BY start DESC", values).fetchall()
    return [Gap(i, _time(start), _time(end)) for i, start, end in rows]


def oldest_stored(conn: sqlite3.Connection, server: str) -> datetime | None:
    found = conn.execute(
        f"SELECT min(created_at) FROM deliveries WHERE {OF_SERVER} AND {READABLE}", (server,)
    ).fetchone()[0]
    return None if found is None else from_micros(found)


def stored(
    conn: sqlite3.Connection, server: str, keys: list[tuple[int, int]]
) -> set[tuple[int, int]]:
    """Which of these (integration id, delivery id) the archive holds."""
    if not keys:
        return set()
    ids = sorted({delivery_id for _, delivery_id in keys})
    marks = ", ".join("?" * len(ids))
    rows = conn.execute(
        "SELECT integration_id, delivery_id FROM deliveries"
        f" WHERE {OF_SERVER} AND delivery_id IN ({marks})",
        [server, *ids],
    ).fetchall()
    return {(int(i), int(d)) for i, d in rows} & set(keys)


def newest_id(conn: sqlite3.Connection, server: str) -> int | None:
    found = conn.execute(
        f"SELECT max(delivery_id) FROM deliveries WHERE {OF_SERVER}", (server,)
    ).fetchone()[0]
    return None if found is None else int(found)


def collected_until(
    conn: sqlite3.Connection, server: str, integration_id: int | None
) -> datetime | None:
    which = WHOLE_SERVER if integration_id is None else integration_id
    found = conn.execute(
        "SELECT collected_until FROM collections WHERE server = ? AND integration_id = ?",
        (server, which),
    ).fetchone()
    return None if found is None else _maybe_time(found[0])


def histogram(
    conn: sqlite3.Connection, server: str, since: datetime, until: datetime, buckets: int
) -> dict[int, list[int]]:
    """As `queries.histogram`."""
    width = (until - since).total_seconds() / buckets
    epoch = "(created_at / 1000000.0)"
    bucket = f"floor(({epoch} - ?) / ?)"
    rows = conn.execute(
        f"SELECT integration_id, {bucket} AS bucket, count(*) FROM deliveries {FAILURES}"
        f" WHERE {OF_SERVER} AND failed = 1 AND {READABLE}"
        " AND created_at >= ? AND created_at < ? GROUP BY integration_id, bucket",
        (since.timestamp(), width, server, to_micros(since), to_micros(until)),
    ).fetchall()
    return bucket_counts((ref.id for ref in integrations(conn, server)), rows, buckets)
