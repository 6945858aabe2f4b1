"""The archive's queries for the failures view (its writes are in `store`): a window of
failures, its groups, its gaps, and failure counts per time bucket (sparklines). Each is one or
two indexed queries.

A row this flagtui cannot read (a `created_at` that is not a time, an `event` or `details` that
is not JSON: a SQLite file edited by hand or by another program; PostgreSQL's column types
refuse both) is skipped and counted, never fatal: every read leaves out the rows whose time is
unreadable (`readable_time`, in SQL), and a page leaves out those whose JSON is (in Python).
"""

from __future__ import annotations

import contextlib
import json
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Connection,
    Float,
    Text,
    and_,
    cast,
    func,
    select,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement
from sqlalchemy.sql.sqltypes import NullType

from flagtui.archive import schema
from flagtui.archive.read_rows import bucket_counts, integration_ref, newest_groups
from flagtui.archive.stored import archived_delivery
from flagtui.triage.records import Delivery, Failure, FailureGroup, Gap, IntegrationRef

D = schema.deliveries


class epoch_seconds(FunctionElement[float]):
    """Seconds since 1970 of a timestamp column, in each dialect's words."""

    type = Float()
    inherit_cache = True


@compiles(epoch_seconds, "postgresql")
def _pg_epoch(element: Any, compiler: Any, **kw: Any) -> str:
    return f"extract(epoch from {compiler.process(element.clauses, **kw)})"


@compiles(epoch_seconds, "sqlite")
def _sqlite_epoch(element: Any, compiler: Any, **kw: Any) -> str:
    return f"({compiler.process(element.clauses, **kw)} / 1000000.0)"  # microseconds


class readable_time(FunctionElement[bool]):
    """True when a delivery's time column holds a time: on SQLite, an integer (microseconds,
    `schema.UtcTime`); PostgreSQL's timestamptz holds nothing else."""

    type = Boolean()
    inherit_cache = True


@compiles(readable_time, "postgresql")
def _pg_readable(element: Any, compiler: Any, **kw: Any) -> str:
    return "true"


@compiles(readable_time, "sqlite")
def _sqlite_readable(element: Any, compiler: Any, **kw: Any) -> str:
    return f"(typeof({compiler.process(element.clauses, **kw)}) = 'integer')"


class unreadable_time(FunctionElement[bool]):
    """`readable_time` negated as SQLite's partial index of unreadable failures says it (where
    SQLAlchemy would write `… = 0`; untyped, as a Boolean would get `= 1` appended): the count
    then reads that index."""

    type = NullType()  # type: ignore[assignment]
    inherit_cache = True


@compiles(unreadable_time, "postgresql")
def _pg_unreadable(element: Any, compiler: Any, **kw: Any) -> str:
    return "false"


@compiles(unreadable_time, "sqlite")
def _sqlite_unreadable(element: Any, compiler: Any, **kw: Any) -> str:
    return f"typeof({compiler.process(element.clauses, **kw)}) != 'integer'"


READABLE = readable_time(D.c.created_at)


def of_server(server: str) -> ColumnElement[bool]:
    """Deliveries of the server at this URL (its id in `servers`, looked up once by the query)."""
    servers = schema.servers
    return D.c.server_id == select(servers.c.id).where(servers.c.url == server).scalar_subquery()


def integrations(conn: Connection, server: str) -> list[IntegrationRef]:
    table = schema.integrations
    rows = conn.execute(select(table).where(table.c.server == server).order_by(table.c.id))
    return [
        IntegrationRef(r.id, r.provider, r.description, r.enabled, r.deleted_at is not None)
        for r in rows
    ]


def _failures_where(
    server: str, since: datetime | None, integration_id: int | None, key: str | None
) -> ColumnElement[bool]:
    clauses = [of_server(server), schema.FAILED, READABLE]
    if since is not None:
        clauses.append(D.c.created_at >= since)
    if integration_id is not None:
        clauses.append(D.c.integration_id == integration_id)
    if key is not None:
        clauses.append(D.c.error_key == key)
    return and_(*clauses)


def failures(
    conn: Connection,
    server: str,
    refs: dict[int, IntegrationRef],
    since: datetime | None,
    integration_id: int | None,
    key: str | None,
    limit: int,
) -> tuple[list[Failure], int, int]:
    """The newest `limit` failures of the window (less the rows whose JSON is unreadable), how
    many the window holds, and how many of its page were unreadable."""
    where = _failures_where(server, since, integration_id, key)
    # The JSON columns read as text, decoded row by row: one bad row must not fail the page.
    raw = [cast(c, Text).label(c.name) if c.name in _JSON else c for c in D.c]
    event = cast(schema.events.c.event, Text).label("event")
    rows = conn.execute(
        select(*raw, event)
        .select_from(D.outerjoin(schema.events, schema.events.c.id == D.c.event_row))
        .where(where)
        .order_by(D.c.created_at.desc(), D.c.delivery_id.desc())
        .limit(limit)
    ).all()
    total = conn.execute(select(func.count()).select_from(D).where(where)).scalar_one()
    found = []
    for row in rows:
        with contextlib.suppress(ValueError):  # JSONDecodeError included
            found.append(
                Failure(integration_ref(refs, row.integration_id), _delivery(row), "archive")
            )
    return found, total, len(rows) - len(found)


def unreadable_times(conn: Connection, server: str) -> int:
    """Failures of the server whose time cannot be read: left out of every read."""
    where = and_(of_server(server), schema.FAILED, unreadable_time(D.c.created_at))
    return int(conn.execute(select(func.count()).select_from(D).where(where)).scalar_one())


def groups(
    conn: Connection,
    server: str,
    refs: dict[int, IntegrationRef],
    since: datetime | None,
    integration_id: int | None = None,
) -> tuple[list[FailureGroup], int]:
    where = _failures_where(server, since, integration_id, None)
    # The example is any of the group's texts (they differ only in what error_key replaced):
    # an aggregate, so both dialects answer it in the one GROUP BY.
    rows = conn.execute(
        select(
            D.c.integration_id,
            D.c.error_key,
            func.count(),
            func.min(D.c.created_at),
            func.max(D.c.created_at),
            func.max(D.c.state_details),
        )
        .where(where)
        .group_by(D.c.integration_id, D.c.error_key)
    ).all()
    found = [
        FailureGroup(integration_ref(refs, integration_id), key, example or "", count, first, last)
        for integration_id, key, count, first, last, example in rows
    ]
    return newest_groups(found)


def gaps(
    conn: Connection, server: str, since: datetime | None, integration_id: int | None
) -> list[Gap]:
    table = schema.gaps
    query = select(table).where(table.c.server == server)
    if since is not None:
        query = query.where(table.c.end >= since)
    if integration_id is not None:
        query = query.where(table.c.integration_id == integration_id)
    rows = conn.execute(query.order_by(table.c.start.desc())).all()
    return [Gap(r.integration_id, r.start, r.end) for r in rows]


def oldest_stored(conn: Connection, server: str) -> datetime | None:
    where = and_(of_server(server), READABLE)
    return conn.execute(select(func.min(D.c.created_at)).where(where)).scalar()


def stored(conn: Connection, server: str, keys: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Which of these (integration id, delivery id) the archive holds."""
    if not keys:
        return set()
    ids = sorted({delivery_id for _, delivery_id in keys})
    rows = conn.execute(
        select(D.c.integration_id, D.c.delivery_id).where(
            of_server(server), D.c.delivery_id.in_(ids)
        )
    ).all()
    return {(int(i), int(d)) for i, d in rows} & set(keys)


def newest_id(conn: Connection, server: str) -> int | None:
    """The newest delivery id the archive holds for the server (any integration)."""
    return conn.execute(select(func.max(D.c.delivery_id)).where(of_server(server))).scalar()


def collected_until(conn: Connection, server: str, integration_id: int | None) -> datetime | None:
    """Up to when a collector read the server completely (or one integration, when named)."""
    table = schema.collections
    which = schema.WHOLE_SERVER if integration_id is None else integration_id
    return conn.execute(
        select(table.c.collected_until).where(
            table.c.server == server, table.c.integration_id == which
        )
    ).scalar()


def histogram(
    conn: Connection, server: str, since: datetime, until: datetime, buckets: int
) -> dict[int, list[int]]:
    """Failures per integration in `buckets` equal slices of [since, until), oldest first;
    every integration the archive knows has its list (zeros when nothing failed)."""
    width = (until - since).total_seconds() / buckets
    bucket = func.floor((epoch_seconds(D.c.created_at) - since.timestamp()) / width)
    rows = conn.execute(
        select(D.c.integration_id, bucket.label("bucket"), func.count())
        .where(of_server(server), schema.FAILED, READABLE)
        .where(D.c.created_at >= since, D.c.created_at < until)
        .group_by(D.c.integration_id, bucket)
    ).all()
    return bucket_counts((ref.id for ref in integrations(conn, server)), rows, buckets)


_JSON = ("event", "details")


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _delivery(row: Any) -> Delivery:
    return archived_delivery(
        row.delivery_id,
        row.integration_id,
        row.created_at,
        row.state,
        row.state_details,
        _json(row.event),
        _json(row.details),
    )
