"""What both archive readers make of their rows alike (`queries` through SQLAlchemy,
`sqlite_reads` through sqlite3, which must not import SQLAlchemy): an integration id as the
integration it names, groups newest first with their total, failure counts per time bucket."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from flagtui.triage.records import FailureGroup, IntegrationRef


def integration_ref(refs: dict[int, IntegrationRef], integration_id: int) -> IntegrationRef:
    return refs.get(integration_id) or IntegrationRef(integration_id, "unknown")


def newest_groups(found: list[FailureGroup]) -> tuple[list[FailureGroup], int]:
    """The groups, the most recently seen first, and how many failures they hold in all."""
    found.sort(key=lambda g: g.last_seen, reverse=True)
    return found, sum(g.count for g in found)


def bucket_counts(
    integration_ids: Iterable[int], rows: Iterable[Sequence[Any]], buckets: int
) -> dict[int, list[int]]:
    """Integration id → counts per bucket, from (integration id, bucket index, count) rows;
    every integration given has its list (zeros when nothing failed), and an index outside
    [0, buckets) counts in the nearest bucket."""
    counts = {i: [0] * buckets for i in integration_ids}
    for integration_id, index, count in rows:
        slot = min(max(int(index), 0), buckets - 1)
        counts.setdefault(integration_id, [0] * buckets)[slot] += count
    return counts
