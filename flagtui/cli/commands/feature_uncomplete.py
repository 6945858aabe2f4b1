"""`flagtui feature uncomplete`: mark a completed flag as not completed (one that is not: nothing
sent, said)."""

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
    scriptable(p, feature_uncomplete, write="mark uncompleted")
    p.add_argument("project")
    p.add_argument("name")


async def feature_uncomplete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    try:
        await client.features.uncomplete(args.project, args.name)
    except NothingToSend as already:
        unchanged(out, already, project=args.project)
        return
    done(out, "feature-uncompleted", project=args.project, featureName=args.name)
