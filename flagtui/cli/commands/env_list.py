"""`flagtui env list`: a project's environments (`visible`: in the project)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, env_list, columns=("name", "type", "visible", "enabled", "protected"))
    p.add_argument("project")


async def env_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.environments.list(args.project))
