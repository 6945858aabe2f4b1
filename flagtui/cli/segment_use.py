"""What the `segment` commands share: the SEGMENT argument (a name or an id), where a segment
is used (flags and strategies per environment) said in words, and the preview of an edit: for
each flag and environment whose strategies use the segment, how many of N synthetic userIds
(default 1,000) get the flag before → after, with the `--context` typed, evaluated with the
SDKs' engine on the segment as the server will store it (`flagtui.preview.segment_edit`)."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from flagtui.cli.context_input import context_of, context_option
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import Said, tell
from flagtui.words import counted

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Segment
    from flagtui.api.segments import SegmentStrategy
    from flagtui.preview.segment_edit import FlagShare

USERS_DEFAULT = 1_000
USERS_MAX = 100_000
CONTEXT_HELP = (
    "the context of the preview's synthetic userIds (repeatable): a standard field"
    " (sessionId, remoteAddress, currentTime, appName) or any other (a property)"
)


def segment_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("segment", help="the segment's name, or its id")


def preview_options(p: argparse.ArgumentParser) -> None:
    context_option(p, CONTEXT_HELP)
    p.add_argument(
        "--users",
        type=int,
        default=USERS_DEFAULT,
        metavar="N",
        help=f"how many synthetic userIds the preview evaluates (default {USERS_DEFAULT:,})",
    )


def used_json(used: Sequence[SegmentStrategy]) -> list[dict[str, Any]]:
    return [u.model_dump(mode="json", by_alias=True) for u in used]


def used_lines(used: Sequence[SegmentStrategy]) -> list[str]:
    """`used by 2 strategies of 1 flag:` then one line a flag and environment."""
    if not used:
        return ["used by no strategy"]
    flags = {(u.project_id, u.feature_name) for u in used}
    uses = counted(len(used), "strategy", "strategies")
    lines = [f"used by {uses} of {counted(len(flags), 'flag')}:"]
    per: dict[tuple[str, str, str], list[SegmentStrategy]] = {}
    for u in used:
        per.setdefault((u.project_id, u.feature_name, u.environment), []).append(u)
    for (project, feature, env), strategies in per.items():
        named = ", ".join(f"{s.strategy_name or 'strategy'} {s.id}" for s in strategies)
        lines.append(f"  {project}/{feature} in {env}: {named}")
    return lines


def tell_used(out: Printer, used: Sequence[SegmentStrategy]) -> None:
    for line in used_lines(used):
        tell(out, line)


async def edit_preview(
    client: AdminClient,
    args: argparse.Namespace,
    segment: Segment,
    used: Sequence[SegmentStrategy],
    constraints: list[dict[str, Any]],
) -> Said:
    """The preview of `segment` stored with `constraints`, said on a terminal before anything
    is sent (one line a flag and environment). A flag the engine cannot read is said too."""
    # Here, not at the top: it loads the SDK engine
    from flagtui.preview import PreviewError
    from flagtui.preview.segment_edit import segment_edit_shares

    if not 1 <= args.users <= USERS_MAX:
        raise UsageError(f"--users: 1 to {USERS_MAX:,}")
    context = context_of(args.context or [], "the segment's usage (each environment is previewed)")
    keys = sorted({(u.project_id, u.feature_name) for u in used})
    flags = await asyncio.gather(*(client.features.get(p, f) for p, f in keys))
    parents = {(p, d.feature) for (p, _), f in zip(keys, flags, strict=True)
               for d in f.dependencies or []}  # fmt: skip
    related = await asyncio.gather(*(client.features.get(p, f) for p, f in sorted(parents)))
    uses = [(u.project_id, u.feature_name, u.environment) for u in used]
    edited = {"id": segment.id, "name": segment.name, "constraints": constraints}
    try:
        shares = segment_edit_shares(
            flags, uses, await client.segments.list(), edited, context,
            related=related, users=args.users,
        )  # fmt: skip
    except PreviewError as exc:
        return Said({"error": str(exc), "context": context}, f"not available ({exc})")
    json = {"users": args.users, "context": context, "flags": [s.as_json() for s in shares]}
    return Said(json, "; ".join(_line(s, args.users) for s in shares) or NO_FLAG)


NO_FLAG = "no flag uses it: no one's flags change"


def _line(s: FlagShare, users: int) -> str:
    where = f"{s.project}/{s.feature} in {s.environment}"
    if s.share is None:
        return f"{where}: not previewed ({s.error})"
    said = f"{where}: {s.share.before.population.enabled:,} →"
    said += f" {s.share.after.population.enabled:,} of {users:,} synthetic userIds get the flag"
    from flagtui.preview.segment_edit import off_words  # loaded by the preview already

    return said + off_words(s)


async def previewed(
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    segment: Segment,
    used: Sequence[SegmentStrategy],
    constraints: list[dict[str, Any]],
) -> Said:
    said = await edit_preview(client, args, segment, used, constraints)
    for line in said.sentence.split("; "):
        tell(out, f"preview: {line}")
    return said
