"""`flagtui group list`: the groups `access grant --group` takes, by id (Enterprise)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, group_list, columns=("id", "name", "description", "userCount", "rootRole"))


async def group_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.access.list_groups())
