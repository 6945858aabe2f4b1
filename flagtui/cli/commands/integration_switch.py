"""`flagtui integration enable|disable`: switch an integration on or off (disable: confirm
first, its deliveries stop)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.reveal import REVEAL_HELP
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def enable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "enable")


def disable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "disable")


def _options(p: argparse.ArgumentParser, verb: str) -> None:
    scriptable(
        p,
        integration_switch,
        write=f"{verb} integration",
        destructive=verb == "disable",
        columns=("id", "provider", "enabled"),
    )
    p.add_argument("id", type=int)
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)


async def integration_switch(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic
    from flagtui.masking import masked_addon

    enabled = args.verb == "enable"
    if not enabled:
        confirm(args, f"disable integration {args.id} (its deliveries stop)", str(args.id))
    addon = await client.integrations.set_enabled(args.id, enabled)
    out.one(addon if args.reveal else masked_addon(addon))
