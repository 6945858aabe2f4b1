"""The archive's writes: integrations as the server lists them, each delivery once, gaps.

Every insert is INSERT … ON CONFLICT DO NOTHING (or DO UPDATE for integrations), built by the
dialect's own `insert`, so several collectors on one archive never duplicate a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, Table, and_, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from flagtui.api.models import IntegrationEvent
from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine, shown_url
from flagtui.archive.errors import ArchiveUnavailable
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
        events = schema.events
        first: dict[int, Any] = {}
        for row in rows:
            number = _event_number(row["event"])
            if number is not None:
                first.setdefault(number, row["event"])
        event_rows: dict[int, int] = {}
        if first:
            numbers = sorted(first)  # key order: see record_collection
            conn.execute(
                _insert(conn, events).on_conflict_do_nothing(
                    index_elements=[events.c.server_id, events.c.event_id]
                ),
                [{"server_id": server_id, "event_id": n, "event": first[n]} for n in numbers],
            )
            found = conn.execute(
                select(events.c.event_id, events.c.id).where(
                    events.c.server_id == server_id, events.c.event_id.in_(numbers)
                )
            )
            event_rows = {int(n): int(i) for n, i in found.all()}
        stored = []
        for row in rows:
            event, number = row["event"], _event_number(row["event"])
            if event is None:
                event_row = None
            elif number is not None:
                event_row = event_rows[number]
            else:  # no id to share it by: a row of its own
                made = insert(events).values(server_id=server_id, event_id=None, event=event)
                event_row = conn.execute(made.returning(events.c.id)).scalar_one()
            fields = {k: v for k, v in row.items() if k != "event"}
            stored.append(fields | {"server_id": server_id, "event_row": event_row})
        # RETURNING counts the rows inserted on both back ends (a driver's executemany
        # rowcount does not).
        statement = _insert(conn, schema.deliveries).on_conflict_do_nothing()
        result = conn.execute(statement.returning(schema.deliveries.c.delivery_id), stored)
        return len(result.all())

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

    def newest_stored(self, integration_id: int) -> tuple[int, datetime] | None:
        """(delivery id, time) of the newest delivery stored for an integration, of those whose
        time can be read (as every read leaves the others out): a newer one with a broken time
        is read again from the server, and stored once."""
        table = schema.deliveries
        with self.reading() as conn:
            row = conn.execute(
                select(table.c.delivery_id, table.c.created_at)
                .where(of_server(self.server), table.c.integration_id == integration_id)
                .where(READABLE)
                .order_by(table.c.delivery_id.desc())
                .limit(1)
            ).first()
        return (int(row[0]), row[1]) if row else None

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
                    _insert(conn, schema.gaps)
                    .values(
                        server=self.server,
                        integration_id=gap.integration_id,
                        start=gap.start,
                        end=gap.end,
                        recorded_at=now,
                    )
                    .on_conflict_do_nothing()
                )
        return inserted


def utc_now() -> datetime:
    return datetime.now(UTC)
