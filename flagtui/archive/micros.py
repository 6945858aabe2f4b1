"""A delivery's times on SQLite since migration 6: microseconds since 1970, UTC, an integer (7
bytes where the text SQLAlchemy wrote took 26, in the row and in each index holding it)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE = timedelta(microseconds=1)


def to_micros(moment: datetime) -> int:
    aware = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    return (aware - EPOCH) // ONE


def from_micros(micros: int) -> datetime:
    return EPOCH + timedelta(microseconds=micros)
