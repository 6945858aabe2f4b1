"""`flagtui feature complete`: mark a live flag completed, as the web UI's "Mark completed":
kept (optionally with the variant kept, `--variant`) or discarded. Read first: one completed
already, or archived, is said and nothing is sent (Unleash would record another event and keep
the first status); a server without lifecycle stages says which version it needs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.api import NothingToSend
from flagtui.cli.done import done, unchanged
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_complete, write="mark completed")
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument(
        "--status",
        choices=("kept", "discarded"),
        default="kept",
        help="the flag's code is kept (default) or discarded",
    )
    p.add_argument(
        "--variant", metavar="V", help="with --status kept: the variant kept (one of the flag's)"
    )


async def feature_complete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    try:
        await client.flag_ops.complete(
            args.project, args.name, status=args.status, variant=args.variant
        )
    except NothingToSend as already:
        unchanged(out, already, project=args.project)
        return
    value = {"statusValue": args.variant} if args.variant is not None else {}
    done(
        out,
        "feature-completed",
        project=args.project,
        featureName=args.name,
        status=args.status,
        **value,
    )
