"""An old archive's answer completed by the live server's: one row per delivery (the archive's
when both have it), each with its origin, groups of the same integration and error joined."""

from __future__ import annotations

from collections.abc import Iterable

from flagtui.triage.grouping import group_failures, newer, recency
from flagtui.triage.records import Failure, FailureGroup


def delivery_key(failure: Failure) -> tuple[int, str]:
    return failure.integration.id, failure.delivery.id


def newest_first(failures: Iterable[Failure]) -> list[Failure]:
    return sorted(failures, key=recency, reverse=True)


def merge_groups(archived: list[FailureGroup], live_only: list[Failure]) -> list[FailureGroup]:
    """The archive's groups with the live-only failures counted in (a group both have: one)."""
    joined = {(g.integration.id, g.error_key): g for g in archived}
    for group in group_failures(live_only):
        key = (group.integration.id, group.error_key)
        seen = joined.get(key)
        joined[key] = (
            group
            if seen is None
            else FailureGroup(
                seen.integration,
                seen.error_key,
                seen.example,
                seen.count + group.count,
                min(seen.first_seen, group.first_seen),
                max(seen.last_seen, group.last_seen),
                newer(seen.newest, group.newest),
            )
        )
    return sorted(joined.values(), key=lambda g: g.last_seen, reverse=True)
