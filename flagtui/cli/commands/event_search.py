"""`flagtui event search`: the event log, newest first, at most `--limit`, none older than
`--since`; when `--limit` cuts that window, a line on stderr says so (a JSON `answer` with JSON
output)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.api.validation import event_search_limit
from flagtui.cli.output import Printer, say
from flagtui.cli.session import scriptable
from flagtui.cli.since import duration, since_cutoff
from flagtui.triage.source import aware
from flagtui.words import counted

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import EventRecord

EVENT_COLUMNS = (
    "id",
    "createdAt",
    "type",
    "createdBy",
    "project",
    "featureName",
    "label",
    "summary",
)


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, event_search, columns=EVENT_COLUMNS)
    for option in ("--type", "--project", "--feature", "--query"):
        p.add_argument(option)
    p.add_argument("--limit", type=int, default=100, help="1 to 100 (default 100)")
    p.add_argument("--since", type=duration, help="only events this recent (90s, 15m, 2h, 7d)")


async def event_search(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Newest first, at most --limit events, none older than --since (pages until then); a
    secret in an event's data masked (`masking.masked_event`)."""
    from flagtui.masking import masked_event  # here, not at the top: it loads pydantic

    event_search_limit(args.limit)  # checked here too: a limit under 1 would skip the loop
    cutoff = since_cutoff(args.since)
    stream = out.format == "jsonl"
    found: list[EventRecord] = []
    cursor = None
    while len(found) <= args.limit:  # one more than shown: whether --limit cut the window
        page = await client.events.search(
            type=args.type,
            project=args.project,
            feature=args.feature,
            query=args.query,
            limit=args.limit,
            cursor=cursor,
        )
        fresh = [e for e in page.events if cutoff is None or aware(e.created_at) >= cutoff]
        if stream:
            out.many(masked_event(e) for e in fresh[: args.limit - len(found)])
        found.extend(fresh)
        if cutoff is None or len(fresh) < len(page.events) or page.next_cursor is None:
            break
        cursor = page.next_cursor
    if not stream:
        out.many(masked_event(e) for e in found[: args.limit])
    if cutoff is not None and len(found) > args.limit:  # the window holds more: said
        say(
            out,
            f"event search: showing the newest {counted(args.limit, 'event')}; --since holds more"
            " (--limit)",
            {"shown": args.limit, "more": True, "cut": "limit"},
        )
