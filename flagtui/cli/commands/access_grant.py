"""`flagtui access grant`: give users and groups roles in a project (Enterprise)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, access_grant, write="grant access")
    p.add_argument("project")
    p.add_argument("--role", type=int, action="append", required=True, metavar="ID")
    p.add_argument("--user", type=int, action="append", metavar="ID")
    p.add_argument("--group", type=int, action="append", metavar="ID")


async def access_grant(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    await client.access.grant(
        args.project, roles=args.role, users=args.user or [], groups=args.group or []
    )
    done(
        out,
        "project-access-added",
        project=args.project,
        roles=args.role,
        users=args.user or [],
        groups=args.group or [],
    )
