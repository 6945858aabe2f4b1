"""`flagtui cr show`: one change request (Enterprise)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, cr_show)
    p.add_argument("project")
    p.add_argument("id", type=int)


async def cr_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.one(await client.change_requests.get(args.project, args.id))
