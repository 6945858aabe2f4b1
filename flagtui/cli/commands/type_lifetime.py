"""`flagtui type lifetime`: days until flags of a type are potentially stale, or never."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, type_lifetime, write="update lifetime")
    p.add_argument("type")
    p.add_argument("days", metavar="DAYS|never")


def lifetime_value(raw: str) -> int | None:
    if raw == "never":
        return None
    try:
        return int(raw)
    except ValueError:
        return -1  # the client's check names the field and the range


async def type_lifetime(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.one(await client.feature_types.update_lifetime(args.type, lifetime_value(args.days)))
