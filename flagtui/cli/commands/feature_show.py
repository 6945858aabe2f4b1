"""`flagtui feature show`: one flag, in full."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_show)
    p.add_argument("project")
    p.add_argument("name")


async def feature_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.one(await client.features.get(args.project, args.name))
