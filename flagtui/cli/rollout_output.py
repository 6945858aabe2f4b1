"""A flag's rollout as the commands print it: `feature strategies` (one row a strategy: the
API's record in JSON, words in a table) and the rollout part of `feature show`. Segments are
named (read when a strategy has some; by id when that read fails). Every server string is
printed through the display boundary (`Printer`, `clean`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from flagtui.api import FlagtuiError
from flagtui.cli.output import record
from flagtui.cli.rollout_target import SHORT_ID
from flagtui.display import clean
from flagtui.rollout_words import (
    constraints_text,
    rollout_text,
    segments_text,
    strategy_lines,
    variants_text,
)

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Strategy, Variant

COLUMNS = (
    "environment",
    "#",
    "id",
    "strategy",
    "rollout",
    "constraints",
    "segments",
    "variants",
    "disabled",
)


async def segment_names(client: AdminClient, strategies: Iterable[Strategy]) -> dict[int, str]:
    """The names of the segments these strategies use ({} when none do or the read fails)."""
    if not any(s.segments for s in strategies):
        return {}
    try:
        return {s.id: s.name for s in await client.segments.list()}
    except FlagtuiError:
        return {}


def strategy_rows(
    per_environment: Mapping[str, Sequence[Strategy]],
    names: Mapping[int, str],
    *,
    as_json: bool,
) -> list[dict[str, Any]]:
    rows = []
    for environment, strategies in per_environment.items():
        for position, s in enumerate(strategies, start=1):
            named = [names.get(int(i)) for i in s.segments or []]
            if as_json:
                rows.append(
                    {
                        "environment": environment,
                        "position": position,
                        **record(s),
                        "segmentNames": named,
                    }
                )
                continue
            title = f" “{clean(s.title)}”" if s.title else ""
            rows.append(
                {
                    "environment": environment,
                    "#": position,
                    "id": (s.id or "")[:SHORT_ID],
                    "strategy": f"{clean(s.name)}{title}",
                    "rollout": rollout_text(s),
                    "constraints": constraints_text(s.constraints),
                    "segments": segments_text(s.segments, names),
                    "variants": variants_text(s.variants),
                    "disabled": bool(s.disabled),
                }
            )
    return rows


def rollout_lines(
    environment: str,
    enabled: bool,
    strategies: Sequence[Strategy],
    variants: Sequence[Variant] | None,
    names: Mapping[int, str],
) -> list[str]:
    """One environment's rollout, for `feature show` on a terminal."""
    lines = [f"rollout in {environment} ({'on' if enabled else 'off'}):"]
    for position, s in enumerate(strategies, start=1):
        head, *rest = strategy_lines(s, names)
        lines.append(f"  {position}. {(s.id or '')[:SHORT_ID]} {head}")
        lines += [f"     {line}" for line in rest]
    if not strategies:
        lines.append("  no strategy")
    if variants:
        lines.append(f"  environment variants {variants_text(variants)}")
    return lines
