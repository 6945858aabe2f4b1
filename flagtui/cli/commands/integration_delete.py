"""`flagtui integration delete`: delete an integration's configuration. Unleash deletes its
delivery history with it, and the delete can race deliveries in flight: disabling keeps the
history and stops deliveries, so the confirmation suggests that first."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, integration_delete, write="delete integration", destructive=True)
    p.add_argument("id", type=int)


async def integration_delete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    if not (args.yes or args.dry_run):
        print(
            f"warning: Unleash deletes integration {args.id}'s delivery history with it, and a"
            " delete can race deliveries in flight. To stop its deliveries and keep the history:"
            f" flagtui integration disable {args.id}",
            file=sys.stderr,
        )
    confirm(args, f"delete integration {args.id} and its delivery history", str(args.id))
    await client.integrations.delete(args.id)
    done(out, "addon-config-deleted", id=args.id)
