"""A walk's store costs a fixed number of statements, however many deliveries it brings: one
statement per delivery (an insert, or an id read back, per row) would make the collector's CPU
per poll grow with every delivery. Counted with SQLAlchemy's own event, on both back ends."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, event, func, select

from flagtui.api.models import IntegrationEvent
from flagtui.archive import schema
from flagtui.archive.store import Archive

SERVER = "http://statements.invalid:4242"
NOW = datetime(2030, 1, 2, tzinfo=UTC)
NO_ID = -1  # an event id the archive cannot share a row by (`store._event_number`)


def delivery(delivery_id: int, event_id: int) -> IntegrationEvent:
    return IntegrationEvent.model_validate(
        {
            "id": str(delivery_id),
            "integrationId": 1 + delivery_id % 3,
            "createdAt": "2030-01-01T00:00:00Z",
            "state": "failed" if delivery_id % 2 else "success",
            "stateDetails": "Webhook request failed with status code: 500",
            "event": {
                "id": event_id,
                "createdAt": "2030-01-01T00:00:00Z",
                "type": "feature-updated",
                "data": {"name": f"flag-{event_id}", "delivery": delivery_id},
            },
            "details": {"url": "https://hooks.example/x", "status": 500},
        }
    )


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    """Every statement sent to the database meanwhile (an executemany counts once)."""
    sent: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", note)


def count(archive: Archive, table: Any) -> int:
    with archive.reading() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_a_store_sends_as_many_statements_for_one_delivery_as_for_forty(archive_url):
    archive = Archive.open(archive_url, SERVER)
    try:
        assert archive.store([delivery(1, 1)], now=NOW) == 1  # the server's row made
        assert archive.store([delivery(1, 1)], now=NOW) == 0  # and its id found (then kept)
        # Each batch: deliveries with a shared event (10 events, 2 deliveries each in the big
        # one) and with an event of their own.
        one = [delivery(2, 100), delivery(3, NO_ID)]
        forty = [delivery(10 + i, 200 + i // 2) for i in range(20)]
        forty += [delivery(40 + i, NO_ID) for i in range(20)]
        with statements(archive.engine) as for_one:
            assert archive.store(one, now=NOW) == 2
        with statements(archive.engine) as for_forty:
            assert archive.store(forty, now=NOW) == 40
        assert len(for_forty) == len(for_one), (for_one, for_forty)
        with statements(archive.engine) as again:  # all stored already: none stored twice
            assert archive.store(forty, now=NOW) == 0
        assert len(again) <= len(for_one)
        assert count(archive, schema.deliveries) == 43
        # 1, 100 and 10 shared events once each; a row for each of the 21 without an id, and
        # for the 20 stored again (nothing finds such a row again: left unused, as before)
        assert count(archive, schema.events) == 1 + 1 + 10 + 21 + 20
        # each delivery points at its own event's row (those without an id told by content)
        d, e = schema.deliveries, schema.events
        with archive.reading() as conn:
            pointed = conn.execute(
                select(d.c.delivery_id, e.c.event_id, e.c.event).join(e, e.c.id == d.c.event_row)
            ).all()
        assert len(pointed) == 43
        for delivery_id, event_id, event in pointed:
            if event_id is None:
                assert event["data"]["delivery"] == delivery_id
            else:
                assert event["id"] == event_id
    finally:
        archive.close()
