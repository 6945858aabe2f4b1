"""The archive's writes: integrations as the server lists them, each delivery once, gaps.

Every insert is INSERT … ON CONFLICT DO NOTHING (or DO UPDATE for integrations), so several
collectors on one archive never duplicate a row. A walk's inserts (its events, deliveries and
gap) are text statements, compiled once (`_insert_new`); a poll's few other writes use the
dialect's own `insert`.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    TextClause,
    and_,
    bindparam,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from flagtui.api.models import IntegrationEvent
from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine, shown_url
from flagtui.archive.errors import ArchiveTooNew, ArchiveUnavailable
from flagtui.archive.location import server_key
from flagtui.archive.migrations import migrate
from flagtui.archive.queries import READABLE, of_server
from flagtui.masking import masked_delivery
from flagtui.triage.grouping import error_key
from flagtui.triage.records import Gap, IntegrationRef
from flagtui.triage.source import aware


def _insert(conn: Connection, table: Table) -> Any:
    """The dialect's INSERT, which knows ON CONFLICT (both spell it the same)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _insert_new(table: Table, columns: Sequence[str], key: Sequence[str] = ()) -> TextClause:
    """INSERT … ON CONFLICT DO NOTHING of `columns`, in the SQL SQLite and PostgreSQL share,
    its parameters typed as the table's columns (JSON, times). Text, because SQLAlchemy 2.0
    compiles the dialects' `insert().on_conflict_do_nothing()` again at every execution (it has
    no cache key): with the three of every walk's store, storing was half the collector's CPU
    in a poll bringing 100 new deliveries. A text statement is compiled once per engine."""
    names = ", ".join(f'"{name}"' for name in columns)
    values = ", ".join(f":{name}" for name in columns)
    target = f" ({', '.join(key)})" if key else ""
    sql = f"INSERT INTO {table.name} ({names}) VALUES ({values}) ON CONFLICT{target} DO NOTHING"
    return text(sql).bindparams(*(bindparam(name, type_=table.c[name].type) for name in columns))


INSERT_EVENTS = _insert_new(
    schema.events, ["server_id", "event_id", "event"], key=["server_id", "event_id"]
)
INSERT_DELIVERIES = _insert_new(schema.deliveries, [c.name for c in schema.deliveries.columns])
INSERT_GAP = _insert_new(schema.gaps, [c.name for c in schema.gaps.columns])
EVENT_ROWS = select(schema.events.c.event_id, schema.events.c.id).where(
    schema.events.c.server_id == bindparam("server_id"),
    schema.events.c.event_id.in_(bindparam("numbers", expanding=True)),
)


def delivery_row(delivery: IntegrationEvent, now: datetime) -> dict[str, Any]:
    """What is stored of a delivery (`Archive.insert_deliveries` puts its `event` in the events
    table): the delivery masked (flagtui/masking.py), never its secrets; what triage reads
    (state, error text, the triggering event) is kept. Only failures are grouped, so only a
    failure's error key is stored."""
    delivery = masked_delivery(delivery)
    event = delivery.event.model_dump(mode="json", by_alias=True) if delivery.event else None
    return {
        "integration_id": delivery.integration_id,
        "delivery_id": int(delivery.id),
        "created_at": aware(delivery.created_at),
        "state": delivery.state,
        "failed": delivery.failed,
        "state_details": delivery.state_details,
        "error_key": error_key(delivery.state_details) if delivery.failed else "",
        "event": event,
        "details": delivery.details,
        "collected_at": now,
    }


def _event_number(event: Any) -> int | None:
    """The server's id of an event, by which deliveries share its row; None: none usable."""
    number = event.get("id") if isinstance(event, dict) else None
    if isinstance(number, int) and not isinstance(number, bool) and 0 <= number < 2**63:
        return number
    return None


def _own_events(conn: Connection, server_id: int, unshared: Sequence[Any]) -> list[int]:
    """A row each for events without an id to share them by, in one statement; their rows'
    ids in the order given. SQLite cannot return a multi-row insert's ids in the order of its
    rows (SQLAlchemy would send one insert per row): they are matched by content, which is all
    that tells two such events apart."""
    if not unshared:
        return []
    events = schema.events
    made = conn.execute(
        insert(events).returning(events.c.id, events.c.event),
        [{"server_id": server_id, "event_id": None, "event": event} for event in unshared],
    )
    ids: dict[str, list[int]] = defaultdict(list)
    for row_id, event in made.all():
        ids[json.dumps(event, sort_keys=True)].append(int(row_id))
    return [ids[json.dumps(event, sort_keys=True)].pop() for event in unshared]


KEY = ("server", "id")
COMPACTED = 6  # the migration after which a SQLite file is rewritten without its freed pages


def _vacuum(engine: Engine) -> None:
    """Migration 6 copies the deliveries into a table a quarter their size and frees the old
    one's pages, which SQLite keeps in the file (reused by later rows): VACUUM gives them back
    to the disk, once. Outside any transaction (VACUUM refuses one), so on the driver's own
    connection (autocommit, see engine.py)."""
    raw = engine.raw_connection()
    try:
        raw.driver_connection.execute("VACUUM")  # type: ignore[union-attr]
    finally:
        raw.close()


def _reason(exc: Exception) -> str:
    """The first line of what the driver said."""
    cause = getattr(exc, "orig", None) or exc
    text = str(cause).strip()
    return text.splitlines()[0] if text else type(cause).__name__


class Archive:
    """One server's deliveries in one archive (a SQLite file, or a PostgreSQL database that
    may hold several servers)."""

    def __init__(self, engine: Engine, server_url: str) -> None:
        self.engine = engine
        self.server = server_key(server_url)
        self._server_id: int | None = None
        applied: list[int] = []
        with engine.begin() as conn:
            self.version = migrate(conn, applied)
        if COMPACTED in applied and engine.dialect.name == "sqlite":
            _vacuum(engine)

    @classmethod
    def open(cls, url: str, server_url: str) -> Archive:
        """Connect and migrate; `ArchiveUnavailable` (the URL's password hidden) if it fails."""
        engine = None
        try:
            engine = create_archive_engine(url)
            return cls(engine, server_url)
        except ArchiveTooNew as exc:
            if engine is not None:
                engine.dispose()
            where = f"the delivery archive {shown_url(url)}"
            raise ArchiveTooNew(exc.version, exc.latest, where) from None
        except (SQLAlchemyError, OSError) as exc:
            if engine is not None:
                engine.dispose()
            raise ArchiveUnavailable(
                f"the delivery archive {shown_url(url)} cannot be opened: {_reason(exc)}"
            ) from None

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            conn.execution_options(read_only=True)
            with conn.begin():
                yield conn

    def server_id(self, conn: Connection) -> int:
        """The server's id in `servers`, added when missing (in the caller's write). An id
        found stored is kept (it never changes): every walk's store asked for it again."""
        if self._server_id is not None:
            return self._server_id
        servers = schema.servers
        find = select(servers.c.id).where(servers.c.url == self.server)
        found = conn.execute(find).scalar()
        if found is not None:
            self._server_id = int(found)
            return self._server_id
        conn.execute(_insert(conn, servers).values(url=self.server).on_conflict_do_nothing())
        return int(conn.execute(find).scalar_one())  # not kept: this write may be rolled back

    def insert_deliveries(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> int:
        """Insert `delivery_row`s not yet stored, each event once (the row of an event already
        stored is reused); how many deliveries were new."""
        if not rows:
            return 0
        server_id = self.server_id(conn)
        first: dict[int, Any] = {}
        unshared: list[int] = []  # the rows whose event has no id to share it by
        for i, row in enumerate(rows):
            number = _event_number(row["event"])
            if number is not None:
                first.setdefault(number, row["event"])
            elif row["event"] is not None:
                unshared.append(i)
        event_rows: dict[int, int] = {}
        if first:
            numbers = sorted(first)  # key order: see record_collection
            conn.execute(
                INSERT_EVENTS,
                [{"server_id": server_id, "event_id": n, "event": first[n]} for n in numbers],
            )
            found = conn.execute(EVENT_ROWS, {"server_id": server_id, "numbers": numbers})
            event_rows = {int(n): int(i) for n, i in found.all()}
        own = _own_events(conn, server_id, [rows[i]["event"] for i in unshared])
        own_rows = dict(zip(unshared, own, strict=True))
        stored = []
        for i, row in enumerate(rows):
            number = _event_number(row["event"])
            event_row = event_rows[number] if number is not None else own_rows.get(i)
            fields = {k: v for k, v in row.items() if k != "event"}
            stored.append(fields | {"server_id": server_id, "event_row": event_row})
        # executemany's rowcount is the sum of the rows inserted, conflicts not counted, on
        # both drivers (sqlite3; psycopg since 3.1).
        return conn.execute(INSERT_DELIVERIES, stored).rowcount

    def sync_integrations(self, refs: Sequence[IntegrationRef], now: datetime) -> None:
        """Store the server's list; those no longer on it are marked deleted (kept). Nothing
        is written (no lock taken) when the archive already says the same."""
        table = schema.integrations
        with self.reading() as conn:
            stored = conn.execute(
                select(table.c.id, table.c.provider, table.c.description, table.c.enabled).where(
                    table.c.server == self.server, table.c.deleted_at.is_(None)
                )
            ).all()
        current = {(r.id, r.provider, r.description, r.enabled) for r in refs}
        if {tuple(row) for row in stored} == current:
            return
        rows = [
            {
                "server": self.server,
                "id": ref.id,
                "provider": ref.provider,
                "description": ref.description,
                "enabled": ref.enabled,
                "deleted_at": None,
            }
            for ref in sorted(refs, key=lambda r: r.id)  # key order: see record_collection
        ]
        with self.engine.begin() as conn:
            if rows:
                statement = _insert(conn, table)
                changed = {k: statement.excluded[k] for k in rows[0] if k not in KEY}
                conn.execute(
                    statement.on_conflict_do_update(
                        index_elements=[table.c.server, table.c.id], set_=changed
                    ),
                    rows,
                )
            conn.execute(
                update(table)
                .where(
                    and_(
                        table.c.server == self.server,
                        table.c.deleted_at.is_(None),
                        table.c.id.not_in([r.id for r in refs]),
                    )
                )
                .values(deleted_at=now)
            )

    def newest_stored(self, integration_ids: Sequence[int]) -> dict[int, tuple[int, datetime]]:
        """(delivery id, time) of the newest delivery stored for each integration that has one,
        of those whose time can be read (as every read leaves the others out): a newer one with
        a broken time is read again from the server, and stored once. One transaction for a
        poll's integrations: a connection and a transaction each were a fifth of an idle
        poll's CPU."""
        table = schema.deliveries
        newest = (
            select(table.c.delivery_id, table.c.created_at)
            .where(of_server(self.server), table.c.integration_id == bindparam("integration"))
            .where(READABLE)
            .order_by(table.c.delivery_id.desc())
            .limit(1)
        )
        found = {}
        with self.reading() as conn:
            for integration_id in integration_ids:
                row = conn.execute(newest, {"integration": integration_id}).first()
                if row is not None:
                    found[integration_id] = (int(row[0]), row[1])
        return found

    def record_collection(
        self, integration_ids: Sequence[int], until: datetime, *, whole_server: bool
    ) -> None:
        """Each integration named (and the server, when a poll read every one) was read
        completely up to `until`. A time never moves back: a slower collector on the same
        archive finishing later with an older `until` leaves the newer one."""
        table = schema.collections
        # In key order, as every multi-row write here: two collectors on one PostgreSQL archive
        # writing the same keys in different orders deadlocked (each held a row the other
        # wanted next).
        ids = sorted({*integration_ids, *([schema.WHOLE_SERVER] if whole_server else [])})
        if not ids:
            return
        rows = [{"server": self.server, "integration_id": i, "collected_until": until} for i in ids]
        with self.engine.begin() as conn:
            statement = _insert(conn, table)
            conn.execute(
                statement.on_conflict_do_update(
                    index_elements=[table.c.server, table.c.integration_id],
                    set_={"collected_until": statement.excluded.collected_until},
                    where=table.c.collected_until < statement.excluded.collected_until,
                ),
                rows,
            )

    def store(
        self, deliveries: Iterable[IntegrationEvent], gap: Gap | None = None, *, now: datetime
    ) -> int:
        """Store a walk's deliveries (and its gap) in one transaction; how many were new."""
        rows = [delivery_row(d, now) for d in deliveries if d.id.isdigit()]
        rows.sort(key=lambda row: row["delivery_id"])  # key order: see record_collection
        inserted = 0
        if not rows and gap is None:
            return 0  # nothing new: no write transaction (no lock) at all
        with self.engine.begin() as conn:
            inserted = self.insert_deliveries(conn, rows)
            if gap is not None:
                conn.execute(
                    INSERT_GAP,
                    {
                        "server": self.server,
                        "integration_id": gap.integration_id,
                        "start": gap.start,
                        "end": gap.end,
                        "recorded_at": now,
                    },
                )
        return inserted


def utc_now() -> datetime:
    return datetime.now(UTC)
