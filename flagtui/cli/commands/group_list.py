"""`flagtui group list`: the groups `access grant --group` takes, by id (Enterprise)."""

from __future__ import annotations

import argparse

from flagtui.cli.session import scriptable

TYPE_CHECKING = False  # typing's, without importing typing (3 ms of a command's start)
if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.cli.output import Printer


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, group_list, columns=("id", "name", "description", "userCount", "rootRole"))


async def group_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.access.list_groups())
