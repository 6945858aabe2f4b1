"""`flagtui cr delete`: delete a change request (Enterprise; confirm, or `--yes`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, cr_delete, write="delete change request", destructive=True)
    p.add_argument("project")
    p.add_argument("id", type=int)


async def cr_delete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    confirm(args, f"delete change request {args.id} of project {args.project}", str(args.id))
    await client.change_requests.delete(args.project, args.id)
    done(out, "change-request-deleted", project=args.project, id=args.id)
