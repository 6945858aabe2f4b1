"""`flagtui failures`: deliveries that did not fully succeed, across integrations, newest first.

Read from the delivery archive when there is one (the profile's `archive_url`, or the SQLite
file `flagtui collect` keeps for this server); otherwise from the server, which keeps only
recent deliveries (real Unleash: about 100 of the last 2 hours, plus the latest per
integration). Each record says where it was read from (`source`: archive or live).

An archive's answer says up to when it is known, in every format, on stderr (one line, or a
JSON `answer` object with JSON output): when a collector last read the server (a time later
than now is said as the collector's clock fault), that the live server was read too, how many
failures the window holds and how many are shown. An archive answers only up to its last
collection, however recent, so the rest of the window is read from the server (see
`archive.source`); when the server cannot be read, the answer is incomplete and
`--fail-on-failures` exits INCOMPLETE unless it found failures. The server's answer alone (no
archive, or one that never collected it) says as much: how far back it holds every delivery
(`triage.coverage`), INCOMPLETE when that is later than the window's start.

`--group` prints one row per integration and error instead (`cli.failure_groups`), with the
same answer said of it; `--report-changes` only the groups new, changed or recovered since
the last run (a state file), for a cron job that mails once per change.

`--follow` prints failures from now (or `--since`) as JSON lines, reading again every
`--interval` seconds (1 at least); on an archive it first collects what the server has new, so
it follows without a collector running (and with one, the archive never holds a row twice). A
read that fails for the server or the network (exit 6 kinds) is said once on stderr and tried
again; any other error ends it with its exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flagtui.archive.source import ArchiveSource, failure_source
from flagtui.cli.exits import (
    FAILURES_FOUND,
    INCOMPLETE,
    OK,
    UNREACHABLE,
    UsageError,
    classify,
    envelope,
)
from flagtui.cli.failure_groups import default_state_path, print_groups, report_changes
from flagtui.cli.output import Printer, say
from flagtui.cli.reveal import REVEAL_HELP
from flagtui.cli.session import scriptable
from flagtui.cli.since import duration, since_cutoff
from flagtui.display import clean
from flagtui.triage.records import Failure, FailureWindow, labels
from flagtui.triage.source import FailureSource, LiveSource

if TYPE_CHECKING:  # the client, the models and the archive: imported when the command runs
    from flagtui.api import AdminClient

MIN_INTERVAL = 1.0
# A delivery's columns (as `integration deliveries`), with where it was read from: archive or live.
FAILURE_COLUMNS = (
    "integrationId", "id", "createdAt", "state", "event.type", "source", "stateDetails",
)  # fmt: skip
# The table (a terminal, the cron mail): integrations by name; JSON and CSV keep the API's fields.
TABLE_COLUMNS = (
    "createdAt", "integration", "integrationId", "source", "state", "event.type", "stateDetails",
)  # fmt: skip


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, failures, columns=FAILURE_COLUMNS)
    # It connects itself: with an archive, a server that is down is said, not fatal.
    p.set_defaults(verb=None, connect_first=False)
    p.add_argument("--since", type=duration, help="only failures this recent (15m, 2h, 1d)")
    p.add_argument("--integration", type=int, metavar="ID")
    p.add_argument(
        "--follow",
        action="store_true",
        help="keep reading; failures from now (or --since) as JSONL",
    )
    p.add_argument(
        "--interval", type=float, default=30.0, help="--follow: seconds between reads (1 at least)"
    )
    p.add_argument(
        "--fail-on-failures",
        action="store_true",
        help="exit 1 when any is found in the window, 8 when the window could not be checked",
    )
    p.add_argument(
        "--group",
        action="store_true",
        help="one row per integration and error: count, first, last, the newest triggering"
        " change and who",
    )
    p.add_argument(
        "--report-changes",
        nargs="?",
        const="",
        metavar="STATE",
        help="--group, printing only the groups new, changed or recovered since the last run"
        " with this state file (0600; default: beside the delivery archive): exit 1 when any,"
        " 8 when incomplete, 0 and nothing printed (table, CSV) when nothing changed",
    )
    p.add_argument(
        "--limit", type=int, default=500, help="at most this many, newest (500; --group: all)"
    )
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP + " (an archive holds none)")


async def read_failures(
    source: FailureSource,
    client: AdminClient,
    args: argparse.Namespace,
    since: datetime | None,
    *,
    server_up: bool = True,
) -> FailureWindow:
    if args.group:
        window = await source.grouped(since, integration_id=args.integration)
    else:
        window = await source.window(since, integration_id=args.integration, limit=args.limit)
    known = {ref.id for ref in window.integrations}
    if server_up and args.integration is not None and args.integration not in known:
        # The server's own answer for an unknown id (a 404 on the contract's sandbox).
        await client.integrations.events(args.integration, limit=1)
    return window


def sourced(failure: Failure, *, reveal: bool) -> dict[str, Any]:
    """The delivery as the API sends it (secrets masked unless revealed), with where it was
    read from. The archive's rows are printed as stored: they were masked when stored
    (`archive.store`, migration 2 for those stored before), so they are not masked again."""
    wire = failure.delivery.wire
    if failure.origin != "archive" and not reveal:
        # Here, not at the top: it loads pydantic
        from flagtui.masking import masked_delivery_json  # the live server's: models loaded

        wire = masked_delivery_json(wire)
    return wire | {"source": failure.origin}


def named(window: FailureWindow, *, reveal: bool) -> list[dict[str, Any]]:
    """The table's rows: each delivery with its integration's label (`Deploy alerts
    (webhook)`, the id beside two alike), as a person reads it in a mail."""
    names = labels(window.integrations)
    return [
        {"integration": names.get(f.integration.id, f"#{f.integration.id}")}
        | sourced(f, reveal=reveal)
        for f in window.failures
    ]


def _check(args: argparse.Namespace) -> None:
    if args.limit < 1:
        raise UsageError(f"--limit: at least 1 (it is {args.limit})")
    if not (math.isfinite(args.interval) and args.interval >= MIN_INTERVAL):
        raise UsageError(f"--interval: seconds, {MIN_INTERVAL:g} at least (it is {args.interval})")
    if args.report_changes is not None:
        args.group = True
    if args.group and args.follow:
        raise UsageError("--group, --report-changes: not with --follow (a report is one read)")


def _print(window: FailureWindow, out: Printer, args: argparse.Namespace) -> int:
    """The window's failures; the exit code --fail-on-failures asks for."""
    if out.format == "table":
        table = Printer("table", TABLE_COLUMNS, whole=("integration",))
        table.many(named(window, reveal=args.reveal))
    else:
        out.many(sourced(f, reveal=args.reveal) for f in window.failures)
    if args.fail_on_failures and window.total:
        return FAILURES_FOUND  # the whole window counts, not only the rows shown
    return INCOMPLETE if args.fail_on_failures and not window.complete else OK


async def failures(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    _check(args)
    started = datetime.now(UTC)
    source = failure_source(args.selected_profile, client)
    try:
        outage = await _connect(client, source)
        since = since_cutoff(args.since)  # `--since 0s` is now: nothing older
        if since is None and args.follow:
            since = started
        window = await read_failures(source, client, args, since, server_up=outage is None)
        shown = window.total if args.group else len(window.failures)  # groups count them all

        def say() -> None:
            if isinstance(source, ArchiveSource):
                _say_answer(window, outage, out, started, limit=args.limit, shown=shown)
            elif not (args.follow and args.since is None):  # from now: nothing to vouch for
                _say_live(window, out, limit=args.limit, shown=shown)
            _say_unreadable(window, as_json=out.is_json)

        if args.report_changes is not None:
            state = Path(args.report_changes or default_state_path(args.selected_profile))
            masked = partial(sourced, reveal=False)  # the state keeps no secret
            return report_changes(
                window, out, state, masked, say=say, integration_id=args.integration
            )
        say()
        if args.follow:
            return await _follow(source, client, out, args, window, since)
        if args.group:
            return print_groups(window, out, args, lambda f: sourced(f, reveal=args.reveal))
        return _print(window, out, args)
    finally:
        if isinstance(source, ArchiveSource):
            await asyncio.to_thread(source.close)


async def _connect(client: AdminClient, source: FailureSource) -> Exception | None:
    """Connect; with an archive, a server that cannot be reached is returned (the archive
    answers), not raised."""
    try:
        await client.connect()
    except Exception as exc:
        if isinstance(source, LiveSource) or classify(exc)[1] != UNREACHABLE:
            raise
        return exc
    return None


def _say_live(window: FailureWindow, out: Printer, *, limit: int, shown: int) -> None:
    """A read of the server alone: how far back it holds every delivery (the server forgets),
    INCOMPLETE when that is later than the window's start; and how many rows are shown."""
    back = window.complete_since
    reach = f"since {back:%Y-%m-%d %H:%M:%S} UTC" if back else "every delivery it ever had"
    parts = [f"from the server, which keeps only recent deliveries (complete {reach})"]
    if not window.complete:
        parts.append(f"INCOMPLETE: {clean(window.unchecked)}")
    if window.total > limit and shown < window.total:
        parts.append(
            f"showing the newest {shown} of {window.total} failures in the window (--limit)"
        )
    say(
        out,
        "; ".join(parts),
        {
            "source": "live",
            "completeSince": _iso(back),
            "complete": window.complete,
            "unchecked": window.unchecked,
            "unreached": window.unreached,
            "inWindow": window.total,
            "shown": shown,
        },
    )


def _say_answer(
    window: FailureWindow,
    outage: Exception | None,
    out: Printer,
    now: datetime,
    *,
    limit: int,
    shown: int,
) -> None:
    """An archive's answer: up to when it was collected, and what the server's read added (or
    why the window is incomplete)."""
    until = window.collected_until
    if until is None:
        fresh = "never collected from this server"
    elif window.clock_fault is not None:
        fresh = f"collected until {until:%Y-%m-%d %H:%M:%S} UTC, later than now: CLOCK FAULT"
    else:
        fresh = f"collected until {until:%Y-%m-%d %H:%M:%S} UTC, {_ago(now, until)}"
    # No file name or URL: this line opens the cron mail (README), which leaves the machine.
    parts = [f"from the delivery archive ({fresh})"]
    if window.clock_fault is not None:
        parts.append(clean(window.clock_fault))
    if not window.complete:
        parts.append(f"INCOMPLETE: {clean(window.unchecked)}")
    else:
        added = window.live_added
        failures = "failure" if added == 1 else "failures"
        parts.append(f"the live server read too ({added} {failures} only there)")
    if window.gaps:
        parts.append(f"{len(window.gaps)} gap(s) in the window")
    if (
        window.total > limit and shown < window.total
    ):  # not rows left out as unreadable: said on a line of their own
        parts.append(f"showing the newest {shown} of {window.total} (--limit)")
    say(
        out,
        "; ".join(parts),
        {
            "source": "archive",
            "collectedUntil": _iso(until),
            "clockFault": window.clock_fault,
            "complete": window.complete,
            "unchecked": window.unchecked,
            "unreached": window.unreached,
            "serverUnreachable": str(outage) if outage is not None else None,
            "serverAsked": True,
            "liveAdded": window.live_added,
            "gaps": len(window.gaps),
            "inWindow": window.total,
            "shown": shown,
        },
    )


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


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _ago(now: datetime, then: datetime) -> str:
    seconds = max(0, int((now - then).total_seconds()))
    if seconds < 120:
        return f"{seconds} s ago"
    if seconds < 7200:
        return f"{seconds // 60} min ago"
    return f"{seconds // 3600} h ago"


async def _follow(
    source: FailureSource,
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    window: FailureWindow,
    since: datetime | None,
) -> int:
    """Print the window's failures (from now, or --since; oldest first), then each new one as
    it appears, until stopped."""
    # Here, not at the top: it loads httpx, pydantic and SQLAlchemy
    from flagtui.archive.collector import Collector

    start = f"{since:%Y-%m-%d %H:%M:%S} UTC" if since else "the start"
    say(
        out,
        f"following failures from {start}, reading every {args.interval:g} s",
        {"following": True, "since": _iso(since)},
    )
    archive = source.archive if isinstance(source, ArchiveSource) else None
    collector = Collector(client, archive, log=lambda _: None) if archive else None
    seen: set[tuple[int, str]] = set()
    found = window.failures
    failing = False
    while True:
        for failure in reversed(found):
            key = (failure.integration.id, failure.delivery.id)
            if key not in seen:
                seen.add(key)
                out.line(sourced(failure, reveal=args.reveal))
        await asyncio.sleep(args.interval)
        try:
            if collector is not None:
                await collector.poll()
            found = (await read_failures(source, client, args, since)).failures
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
