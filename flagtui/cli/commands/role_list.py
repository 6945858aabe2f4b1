"""`flagtui role list`: the roles `access grant --role` takes, by id (root and project roles;
custom roles on Enterprise)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, role_list, columns=("id", "type", "name", "description"))


async def role_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.access.list_roles())
