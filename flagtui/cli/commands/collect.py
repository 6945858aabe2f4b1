"""`flagtui collect`: keep every delivery the server reports in the archive, until stopped.

The archive is the profile's `archive_url` (PostgreSQL), else a SQLite file in the user data
dir, one per server. Progress goes to stderr, one line per change of state (collecting, the
server failing, collecting again) and one per recorded gap. SIGTERM or SIGINT stops it at
once: a poll in flight is abandoned (what it stored is whole), and the exit code is 0. A token
the server refuses is read again once from the profile's source (it may have been rotated);
refused again, the command ends with that error (exit 3).
`--once` polls once and exits with the poll's outcome (a failure's exit code, see below).

One collector at a time per server and archive (flagtui/archive/lease.py): on PostgreSQL a
second one says who collects and stands by, taking over when that one stops or dies; on SQLite,
and with `--once` anywhere, a second one is refused (exit 2) naming the other (host, pid,
since). `--status` says which collector is active, from the archive.

`--metrics` and `--textfile` publish Prometheus metrics while collecting (cli/metrics_options.py).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import signal
import sys
from typing import TYPE_CHECKING

from flagtui.archive.errors import CollectorBusy
from flagtui.archive.location import archive_url, collect_url
from flagtui.cli import metrics_options
from flagtui.cli.exits import OK, UsageError
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable
from flagtui.config import Profile, resolve_token
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient

MIN_INTERVAL = 1.0
MAX_INTERVAL = 3600.0  # real Unleash forgets within 2 hours: rarer polls would only lose more


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, collect)
    p.set_defaults(verb=None, connect_first=False)
    p.add_argument("--interval", type=float, default=30.0, help="seconds between polls (30)")
    p.add_argument("--once", action="store_true", help="poll once, print what was stored, exit")
    p.add_argument(
        "--status", action="store_true", help="say which collector is active (host, pid, since)"
    )
    metrics_options.add_options(p)


def _log(line: str) -> None:
    print(clean(f"flagtui collect: {line}"), file=sys.stderr, flush=True)


async def collect(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    # Here, not at the top: it loads httpx, pydantic and SQLAlchemy
    from flagtui.archive.collector import Collector  # SQLAlchemy: only for this command
    from flagtui.archive.engine import shown_url
    from flagtui.archive.lease import busy_sentence, collect_in_turn, lease_for
    from flagtui.archive.store import Archive

    if not (math.isfinite(args.interval) and MIN_INTERVAL <= args.interval <= MAX_INTERVAL):
        raise UsageError(
            f"--interval: seconds from {MIN_INTERVAL:g} to {MAX_INTERVAL:g} (it is {args.interval})"
        )
    publish = metrics_options.publisher(args, _log)
    profile: Profile = args.selected_profile
    if args.status:
        return await _status(profile, out)
    url = collect_url(profile)
    archive = await asyncio.to_thread(Archive.open, url, profile.url)
    lease = lease_for(archive)
    metrics = None
    try:
        metrics = publish(archive, profile.url, client.health) if publish else None
        collector = Collector(
            client,
            archive,
            log=_log,
            read_token=lambda: resolve_token(profile).token,
            watch=metrics,
        )
        sqlite = archive.engine.dialect.name == "sqlite"
        if (args.once or sqlite) and not await asyncio.to_thread(lease.take):
            why = "a SQLite archive has one collector at a time" if sqlite else "--once never waits"
            raise CollectorBusy(
                f"{busy_sentence(archive.server, lease.other)} ({shown_url(url)}): {why};"
                " stop that one first"
            )
        if args.once:
            result = await collector.poll()
            out.one(
                {
                    "integrations": result.integrations,
                    "stored": result.stored,
                    "gaps": len(result.gaps),
                    "archive": shown_url(url),
                }
            )
            return OK
        _log(f"{profile.url} into {shown_url(url)}")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            await collect_in_turn(collector, lease, args.interval, stop)
        finally:
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(signum)
        _log("stopped")
        return OK
    finally:
        await asyncio.to_thread(lease.release)
        if metrics is not None:
            await asyncio.to_thread(metrics.close)
        await asyncio.to_thread(archive.close)


async def _status(profile: Profile, out: Printer) -> int:
    """The archive's word on who collects the profile's server into it."""
    from flagtui.archive.engine import shown_url
    from flagtui.archive.lease import activity
    from flagtui.archive.store import Archive

    url = archive_url(profile)
    record: dict[str, object] = {"server": profile.url, "archive": shown_url(url) if url else None}
    if url is None:
        out.one(record | {"active": False, "host": None, "pid": None, "since": None})
        return OK
    archive = await asyncio.to_thread(Archive.open, url, profile.url)
    try:
        now = await asyncio.to_thread(activity, archive)
    finally:
        await asyncio.to_thread(archive.close)
    holder = now.holder
    out.one(
        record
        | {
            "active": now.active,
            "host": holder.host if holder else None,
            "pid": holder.pid if holder else None,
            "since": holder.since.isoformat() if holder else None,
        }
    )
    return OK
