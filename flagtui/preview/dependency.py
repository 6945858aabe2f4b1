"""Who gets a child flag before and after its dependency changes, in each of its environments:
the child's record with its `dependencies` as Unleash will store them, evaluated with the
parents (the one it has now and the one it will have) beside it, as SDKs are fed them.

    after = with_dependency(child, {"feature": "parent", "enabled": True, "variants": []})
    dependency_shares(child, after, related=[old_parent, new_parent], context={...})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flagtui.preview.client_shape import PreviewError, Record, plain
from flagtui.preview.share import USERS, ShareChange, share_change


def with_dependency(flag: Record, dependency: Mapping[str, Any] | None) -> dict[str, Any]:
    """The record once its dependency is `dependency` (None: no dependency). A flag has one
    parent: a new one replaces the old, as Unleash stores it."""
    record: dict[str, Any] = plain(flag)
    record["dependencies"] = [dict(dependency)] if dependency is not None else []
    return record


def dependency_shares(
    before: Record,
    after: Record,
    *,
    related: Sequence[Record],
    context: Mapping[str, Any] | None = None,
    segments: Iterable[Record] = (),
    users: int = USERS,
) -> dict[str, ShareChange | PreviewError]:
    """Per environment of the child, before → after (an environment the engine cannot
    preview: its PreviewError, said in its place). A few seconds of CPU: off a UI loop."""
    segments = list(segments)
    shares: dict[str, ShareChange | PreviewError] = {}
    for env in plain(before).get("environments") or []:
        name = env.get("name") or env.get("environment")
        try:
            shares[name] = share_change(
                before, after, name, context, segments=segments, related=related, users=users
            )
        except PreviewError as exc:
            shares[name] = exc
    return shares
