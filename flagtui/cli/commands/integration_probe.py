"""`flagtui integration probe ID`: the integration's target tried from this machine (DNS, TCP,
TLS and its certificate, the HTTP status of a HEAD without the payload), each step with its
time, the URL's secrets masked (`flagtui.probe`). Exit 0 when the target answered HTTP, 6 when
a step failed."""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from flagtui.cli.exits import OK, UNREACHABLE, UsageError
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient

STEP_COLUMNS = ("step", "result", "ms", "detail")
DEFAULT_TIMEOUT = 10.0


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, integration_probe, columns=STEP_COLUMNS)
    p.add_argument("id", type=int)
    p.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds each step may take (10)"
    )


async def integration_probe(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    if not (math.isfinite(args.timeout) and 0 < args.timeout <= 600):
        raise UsageError(f"--timeout: seconds, more than 0 and at most 600 (it is {args.timeout})")
    # Here, not at the top: `--help` imports this module
    from flagtui.probe import NoTarget, integration_target, probe, report

    try:
        label, url, source = await integration_target(client, args.id)
    except NoTarget as exc:
        raise UsageError(str(exc)) from None
    shown = report(label, url, source, await probe(url, timeout=args.timeout))
    shown = {"integrationId": args.id} | shown
    if out.format in ("json", "jsonl"):
        out.one(shown)
    elif out.format == "csv":
        out.many(shown["steps"])
    else:
        out.note(f"probing {label} at {shown['target']} ({source}):")
        Printer("table", STEP_COLUMNS).many(shown["steps"])
        out.note(shown["seenFrom"][0].upper() + shown["seenFrom"][1:] + ".")
    return OK if shown["reached"] else UNREACHABLE
