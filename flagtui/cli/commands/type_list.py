"""`flagtui type list`: feature types and their lifetimes."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, type_list, columns=("id", "name", "lifetimeDays"))


async def type_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.feature_types.list())
