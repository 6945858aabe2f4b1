"""`flagtui env list`: a project's environments (`visible`: in the project)."""

from __future__ import annotations

import argparse

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

TYPE_CHECKING = False  # typing's, without importing typing (3 ms of a command's start)
if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, env_list, columns=("name", "type", "visible", "enabled", "protected"))
    p.add_argument("project")


async def env_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.environments.list(args.project))
