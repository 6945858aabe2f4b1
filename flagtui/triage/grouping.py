"""Error texts that differ only in ids, numbers, addresses or URLs are one kind of failure."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from flagtui.triage.records import Failure, FailureGroup, aware

MAX_KEY = 200
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_HEX = re.compile(r"\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b", re.IGNORECASE)
_IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_SPACE = re.compile(r"\s+")


def error_key(text: str | None) -> str:
    """The error text with its variable parts replaced: the key failures are grouped by."""
    key = _URL.sub("<url>", text or "")
    key = _UUID.sub("<id>", key)
    key = _HEX.sub("<id>", key)
    key = _IP.sub("<address>", key)
    key = _NUMBER.sub("<n>", key)
    return _SPACE.sub(" ", key).strip()[:MAX_KEY]


def recency(failure: Failure) -> tuple[datetime, int]:
    """What orders failures newest last: the time, then the delivery id (one sequence)."""
    delivery = failure.delivery
    return aware(delivery.created_at), int(delivery.id) if delivery.id.isdigit() else 0


def newer(a: Failure | None, b: Failure | None) -> Failure | None:
    """The more recent of two failures (either may be None)."""
    if a is None or b is None:
        return a or b
    return b if recency(b) > recency(a) else a


def group_failures(failures: Iterable[Failure]) -> list[FailureGroup]:
    """Groups by integration and error key, the most recently seen group first."""
    groups: dict[tuple[int, str], FailureGroup] = {}
    for failure in failures:
        delivery = failure.delivery
        key = (failure.integration.id, error_key(delivery.state_details))
        seen = groups.get(key)
        if seen is None:
            groups[key] = FailureGroup(
                failure.integration,
                key[1],
                delivery.state_details or "",
                1,
                delivery.created_at,
                delivery.created_at,
                failure,
            )
        else:
            groups[key] = FailureGroup(
                seen.integration,
                seen.error_key,
                seen.example,
                seen.count + 1,
                min(seen.first_seen, delivery.created_at),
                max(seen.last_seen, delivery.created_at),
                newer(seen.newest, failure),
            )
    return sorted(groups.values(), key=lambda g: g.last_seen, reverse=True)
