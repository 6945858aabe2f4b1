"""`flagtui tag list NAME` (a flag's tags, whichever project it is in) and `flagtui tag type
list` (the server's tag types)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, tag_list, columns=("type", "value"))
    p.add_argument("name")


async def tag_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.tags.list(args.name))


def type_list_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, tag_type_list, columns=("name", "description"))


async def tag_type_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.tags.types())
