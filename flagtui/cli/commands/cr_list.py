"""`flagtui cr list`: a project's change requests (Enterprise)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, cr_list, columns=("id", "title", "environment", "state", "createdAt"))
    p.add_argument("project")


async def cr_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.change_requests.list(args.project))
