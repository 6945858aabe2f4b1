"""`flagtui feature stale PROJECT`: the flags an admin walks through once a month: stale and
potentially stale, oldest first, each with its age, its type's lifetime, who created it, when an
SDK last saw it (per environment) and whether it is on in production (fleet/stale.py). Archive
from it:

    flagtui feature stale P -o json | jq -r '.[].name' | flagtui feature archive P --stdin
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer, say
from flagtui.cli.session import scriptable
from flagtui.fleet.stale import COLUMNS, read_stale

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_stale, columns=COLUMNS)
    p.add_argument("project")


async def feature_stale(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    stale = await read_stale(client, args.project)
    out.many(stale.rows)
    if not stale.complete:
        shown = len(stale.rows)
        said = f"showing the oldest {shown} of {stale.total} stale flags"
        say(out, said, {"complete": False, "shown": shown, "total": stale.total})
