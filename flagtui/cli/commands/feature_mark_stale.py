"""`flagtui feature mark-stale|unmark-stale PROJECT NAME... | --stdin`: mark flags stale or not
stale (Unleash's batch route, each flag's `feature-stale-on`/`-off`), one plan, each flag's
own outcome (cli/bulk.py). Not destructive: SDKs evaluate a stale flag as before. The flags to
walk through come from `feature stale PROJECT`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli import bulk
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def mark_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, mark_stale, write="mark stale", columns=bulk.COLUMNS)
    bulk.add_project_and_names(p)


def unmark_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, mark_stale, write="mark not stale", columns=bulk.COLUMNS)
    bulk.add_project_and_names(p)


async def mark_stale(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    # Here, not at the top: it loads pydantic
    from flagtui.api.bulk_changes import Change

    change = Change("stale" if args.verb == "mark-stale" else "unstale")
    return await bulk.change_many(client, out, args, bulk.names_of(args), change, lambda _: None)
