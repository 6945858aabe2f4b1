"""`flagtui collect`'s `--metrics` and `--textfile` (flagtui/metrics): their options, their
values checked before anything is opened, and prometheus-client imported only when one is
given."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from flagtui.cli.exits import UsageError

if TYPE_CHECKING:
    from flagtui.api.health import Health
    from flagtui.archive.store import Archive
    from flagtui.metrics.exposition import Metrics

Publish = Callable[["Archive", str, "Health"], "Metrics"]


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--metrics",
        metavar="[HOST:]PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics while collecting (HOST:"
        " 127.0.0.1 unless an IP address is written)",
    )
    p.add_argument(
        "--textfile",
        metavar="PATH",
        help="write Prometheus metrics to PATH (ending in .prom) after each poll, for"
        " node_exporter's textfile collector",
    )


def publisher(args: argparse.Namespace, log: Callable[[str], None]) -> Publish | None:
    """What starts the metrics the options ask for (None: neither is given)."""
    if args.metrics is None and args.textfile is None:
        return None
    if args.once:
        raise UsageError("--metrics and --textfile report a running collector: not with --once")
    from flagtui.metrics import exposition

    try:
        address = None if args.metrics is None else exposition.listen_address(args.metrics)
        textfile = None if args.textfile is None else exposition.textfile_path(args.textfile)
    except exposition.MetricsOptionError as exc:
        raise UsageError(str(exc)) from None

    def publish(archive: Archive, server_url: str, health: Health) -> Metrics:
        try:
            return exposition.Metrics(
                archive, server_url, health, address=address, textfile=textfile, log=log
            )
        except exposition.MetricsOptionError as exc:
            raise UsageError(str(exc)) from None

    return publish
