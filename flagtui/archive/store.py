"""The archive's writes: integrations as the server lists them, each delivery once, gaps.

Every insert is INSERT … ON CONFLICT DO NOTHING (or DO UPDATE for integrations), built by the
dialect's own `insert`, so several collectors on one archive never duplicate a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, Table, and_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from flagtui.api.models import IntegrationEvent
from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine, shown_url
from flagtui.archive.errors import ArchiveUnavailable
from flagtui.archive.location import server_key
from flagtui.archive.migrations import migrate
from flagtui.archive.queries import READABLE
from flagtui.masking import masked_delivery
from flagtui.triage.grouping import error_key
from flagtui.triage.records import Gap, IntegrationRef
from flagtui.triage.source import aware


def _insert(conn: Connection, table: Table) -> Any:
    """The dialect's INSERT, which knows ON CONFLICT (both spell it the same)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def delivery_row(server: str, delivery: IntegrationEvent, now: datetime) -> dict[str, Any]:
    """The row stored: the delivery masked (flagtui/masking.py), never its secrets; what triage
    reads (state, error text, the triggering event) is kept."""
    delivery = masked_delivery(delivery)
    event = delivery.event.model_dump(mode="json", by_alias=True) if delivery.event else None
    return {
        "server": server,
        "integration_id": delivery.integration_id,
        "delivery_id": int(delivery.id),
        "created_at": aware(delivery.created_at),
        "state": delivery.state,
        "failed": delivery.failed,
        "state_details": delivery.state_details,
        "error_key": error_key(delivery.state_details),
        "event": event,
        "details": delivery.details,
        "collected_at": now,
    }


KEY = ("server", "id")


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
        with engine.begin() as conn:
            self.version = migrate(conn)

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
                .where(table.c.server == self.server, table.c.integration_id == integration_id)
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
        rows = [delivery_row(self.server, d, now) for d in deliveries if d.id.isdigit()]
        rows.sort(key=lambda row: row["delivery_id"])  # key order: see record_collection
        inserted = 0
        if not rows and gap is None:
            return 0  # nothing new: no write transaction (no lock) at all
        with self.engine.begin() as conn:
            if rows:
                # RETURNING counts the rows inserted on both back ends (a driver's executemany
                # rowcount does not).
                statement = _insert(conn, schema.deliveries).on_conflict_do_nothing()
                result = conn.execute(statement.returning(schema.deliveries.c.delivery_id), rows)
                inserted = len(result.all())
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
