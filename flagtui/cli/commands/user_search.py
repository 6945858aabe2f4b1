"""`flagtui user search`: users by name, username or email."""

from __future__ import annotations

import argparse

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

TYPE_CHECKING = False  # typing's, without importing typing (3 ms of a command's start)
if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, user_search, columns=("id", "name", "username", "email"))
    p.add_argument("query")


async def user_search(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many((await client.users.search(args.query)).users)
