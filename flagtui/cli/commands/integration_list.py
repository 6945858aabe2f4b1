"""`flagtui integration list`: integration configurations, secrets masked unless `--reveal`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.reveal import REVEAL_HELP
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, integration_list, columns=("id", "provider", "enabled", "description", "events"))
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)


async def integration_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Parameters masked unless --reveal: Unleash masks those its providers mark sensitive,
    not a body template or headers that hold a secret."""
    # Here, not at the top: it loads pydantic
    from flagtui.masking import masked_addon, sensitive_names

    listed = await client.integrations.list()
    if args.reveal:
        out.many(listed.addons)
        return
    sensitive = sensitive_names(listed)
    out.many(masked_addon(a, sensitive.get(a.provider, set())) for a in listed.addons)
