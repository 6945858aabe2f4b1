"""Who gets each flag a segment edit changes: for every flag and environment whose strategies
use the segment, how many of N synthetic userIds (default 1,000) get the flag with the
segment as it is and as it will be stored (its constraints as the PUT sends them: Unleash
stores a segment's constraints as sent), with the context the admin typed.

    shares = segment_edit_shares(flags, uses, segments, {"id": 3, "constraints": [...]})
    for s in shares: s.feature, s.environment, s.share.as_json()

The flag records are the same on both sides; only the segment differs, so each side is one
engine loaded with the server's segments, the edited one replaced on the "after" side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flagtui.preview.client_shape import PreviewError, Record, environment_of, plain
from flagtui.preview.engine import Preview
from flagtui.preview.share import ShareChange, Side, switched

SEGMENT_USERS = 1_000


@dataclass(frozen=True)
class FlagShare:
    """One flag in one environment: its share before and after the segment's edit."""

    project: str
    feature: str
    environment: str
    strategies: int  # how many of its strategies there use the segment
    share: ShareChange | None  # None: not previewed (`error` says why)
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        said = self.share.as_json() if self.share else {"error": self.error}
        return {
            "project": self.project,
            "feature": self.feature,
            "environment": self.environment,
            "strategies": self.strategies,
            **said,
        }


def edited_segments(segments: Iterable[Record], edited: Record) -> list[dict[str, Any]]:
    """The server's segments with `edited` (id and constraints as to be stored) in its place."""
    after = plain(edited)
    out = [plain(s) for s in segments]
    return [{**s, **after} if s.get("id") == after["id"] else s for s in out]


def segment_edit_shares(
    flags: Sequence[Record],
    uses: Iterable[tuple[str, str, str]],
    segments: Iterable[Record],
    edited: Record,
    context: Mapping[str, Any] | None = None,
    *,
    related: Sequence[Record] = (),
    users: int = SEGMENT_USERS,
) -> list[FlagShare]:
    """`uses`: (project, feature, environment) of each strategy using the segment (one per
    strategy: counted); `flags`: those flags' records; `related`: the flags they depend on.
    A flag or environment the engine cannot evaluate (a parent flag not given, an environment
    the flag's record lacks) is a FlagShare with its `error`, the others previewed."""
    before_segments = [plain(s) for s in segments]
    after_segments = edited_segments(before_segments, edited)
    by_name = {plain(f)["name"]: f for f in flags}
    counted: dict[tuple[str, str, str], int] = {}
    for use in uses:
        counted[use] = counted.get(use, 0) + 1
    context = dict(context or {})
    out = []
    for (project, feature, environment), strategies in counted.items():
        flag = by_name[feature]

        def side(
            segs: list[dict[str, Any]], off: bool, flag: Record = flag, env: str = environment
        ) -> Side:
            def count(record: Record) -> Any:
                preview = Preview(record, env, segments=segs, related=related)
                return preview.population(users, context)

            enabled = bool(environment_of(plain(flag), env).get("enabled"))
            when_on = count(switched(flag, env, True)) if off else None
            return Side(enabled, count(flag), when_on)

        try:
            off = not environment_of(plain(flag), environment).get("enabled")
            sides = side(before_segments, off), side(after_segments, off)
        except PreviewError as exc:
            out.append(FlagShare(project, feature, environment, strategies, None, str(exc)))
            continue
        share = ShareChange(environment, context, *sides)
        out.append(FlagShare(project, feature, environment, strategies, share))
    return out


def off_words(s: FlagShare) -> str:
    """An environment off on both sides gets no one now: what matters is who gets the flag once
    it is switched on, before → after."""
    assert s.share is not None
    if s.share.after.enabled:
        return ""
    was, will = s.share.before.when_on, s.share.after.when_on
    if was is None or will is None:
        return f" ({s.environment} is off: no one now)"
    once = f"once switched on: {was.enabled:,} → {will.enabled:,}"
    return f" ({s.environment} is off: no one now, {once})"
