"""`flagtui failures`: deliveries that did not fully succeed, across integrations, newest first.

Read from the delivery archive when there is one (the profile's `archive_url`, or the SQLite
file `flagtui collect` keeps for this server), said on stderr in table mode; otherwise from the
server, which keeps only recent deliveries (real Unleash: about 100 of the last 2 hours, plus
the latest per integration). `--follow` reads again every `--interval` seconds and prints each
new failure as a JSON line; on an archive it first collects what the server has new, so it
follows without a collector running (and with one, the archive never holds a row twice). A
read that fails for the server or the network (exit 6 kinds) is said once on stderr and tried
again; any other error ends it with its exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from flagtui.api import AdminClient
from flagtui.api.models import IntegrationEvent
from flagtui.archive.source import ArchiveSource, failure_source
from flagtui.cli.exits import FAILURES_FOUND, OK, UNREACHABLE, UsageError, classify, envelope
from flagtui.cli.output import Printer, record
from flagtui.cli.reads import shown_deliveries, shown_delivery, since_cutoff
from flagtui.display import clean
from flagtui.triage.records import FailureWindow, labels
from flagtui.triage.source import FailureSource

# The table (a terminal, the cron mail): integrations by name; JSON and CSV keep the API's fields.
TABLE_COLUMNS = ("createdAt", "integration", "integrationId", "state", "event.type", "stateDetails")


async def read_failures(
    source: FailureSource, client: AdminClient, args: argparse.Namespace
) -> tuple[list[IntegrationEvent], FailureWindow]:
    since = since_cutoff(args.since)
    window = await source.window(since, integration_id=args.integration, limit=args.limit)
    known = {ref.id for ref in window.integrations}
    if args.integration is not None and args.integration not in known:
        # The server's own answer for an unknown id (a 404 on the contract's sandbox).
        await client.list_integration_events(args.integration, limit=1)
    return [f.delivery for f in window.failures], window


async def failures(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise UsageError(f"--limit: at least 1 (it is {args.limit})")
    source = failure_source(args.selected_profile, client)
    try:
        found, window = await read_failures(source, client, args)
        if isinstance(source, ArchiveSource) and out.format == "table":
            _say_archive(window)
        _say_unreadable(window, as_json=out.is_json)
        if args.follow:
            return await _follow(source, client, out, args, found)
        shown = shown_deliveries(found, reveal=args.reveal)
        if out.format == "table":
            Printer("table", TABLE_COLUMNS).many(_named(shown, window))
        else:
            out.many(shown)
        return FAILURES_FOUND if args.fail_on_failures and found else OK
    finally:
        if isinstance(source, ArchiveSource):
            await asyncio.to_thread(source.close)


def _named(found: list[IntegrationEvent], window: FailureWindow) -> list[dict[str, Any]]:
    """The table's rows: each delivery with its integration's label (`Deploy alerts
    (webhook)`, the id beside two alike), as a person reads it in a mail."""
    names = labels(window.integrations)
    return [
        {"integration": names.get(d.integration_id, f"#{d.integration_id}"), **record(d)}
        for d in found
    ]


def _say_archive(window: FailureWindow) -> None:
    since = f"{window.covers_since:%Y-%m-%d %H:%M} UTC" if window.covers_since else "nothing yet"
    gaps = f"; {len(window.gaps)} gap(s) in the window" if window.gaps else ""
    shown = f"; showing the newest {len(window.failures)} of {window.total}"
    more = shown if window.total > len(window.failures) else ""
    # No file name or URL: this line opens the cron mail (README), which leaves the machine.
    print(clean(f"flagtui: from the delivery archive (since {since}{gaps}{more})"), file=sys.stderr)


def _say_unreadable(window: FailureWindow, *, as_json: bool) -> None:
    """Rows of the archive left out, said on stderr in every format (stdout stays the data)."""
    note = window.unreadable_note
    if note is None:
        return
    if as_json:
        warning = {"kind": "unreadable-rows", "count": window.unreadable, "message": note}
        print(json.dumps({"warning": warning}), file=sys.stderr)
    else:
        print(f"flagtui: the delivery archive: {note}", file=sys.stderr)


async def _follow(
    source: FailureSource,
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    found: list[IntegrationEvent],
) -> int:
    """Print what is there (oldest first), then each new failure as it appears, until stopped."""
    from flagtui.archive.collector import Collector

    archive = source.archive if isinstance(source, ArchiveSource) else None
    collector = Collector(client, archive, log=lambda _: None) if archive else None
    seen: set[tuple[int, str]] = set()
    failing = False
    while True:
        for delivery in reversed(found):
            key = (delivery.integration_id, delivery.id)
            if key not in seen:
                seen.add(key)
                out.line(record(shown_delivery(delivery, reveal=args.reveal)))
        await asyncio.sleep(args.interval)
        try:
            if collector is not None:
                await collector.poll()
            found, _ = await read_failures(source, client, args)
        except Exception as exc:
            # A server restarting or a network blip must not end a follower (exit 6 kinds);
            # a refused token or an unknown integration does. Said once per outage.
            if classify(exc)[1] != UNREACHABLE:
                raise
            if not failing:
                _say_failing(exc, as_json=out.is_json, interval=args.interval)
            failing, found = True, []
            continue
        if failing and not out.is_json:
            print("flagtui: failures --follow: reading again", file=sys.stderr, flush=True)
        failing = False


def _say_failing(exc: Exception, *, as_json: bool, interval: float) -> None:
    if as_json:
        print(json.dumps(envelope(exc)), file=sys.stderr, flush=True)
    else:
        said = f"flagtui: {exc}; still following, trying again every {interval:g} s"
        print(clean(said), file=sys.stderr, flush=True)
