"""`flagtui user search`: users by name, username or email."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, user_search, columns=("id", "name", "username", "email"))
    p.add_argument("query")


async def user_search(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many((await client.users.search(args.query)).users)
