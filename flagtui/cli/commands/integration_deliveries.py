"""`flagtui integration deliveries`: an integration's newest deliveries, read page by page."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.reveal import REVEAL_HELP, shown_deliveries
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import IntegrationEvent

DELIVERY_COLUMNS = ("integrationId", "id", "createdAt", "state", "event.type", "stateDetails")
DELIVERY_PAGE = 100  # real Unleash answers 50 to a limit over 100: a larger --limit is paged


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, integration_deliveries, columns=DELIVERY_COLUMNS)
    p.add_argument("id", type=int)
    p.add_argument("--failed", action="store_true", help="only deliveries that did not succeed")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)


async def integration_deliveries(
    client: AdminClient, out: Printer, args: argparse.Namespace
) -> None:
    """The newest --limit deliveries (then --failed keeps the failed ones among them)."""
    if args.limit < 1:
        raise UsageError(f"--limit: at least 1 (it is {args.limit})")
    deliveries: list[IntegrationEvent] = []
    while len(deliveries) < args.limit:
        size = min(DELIVERY_PAGE, args.limit - len(deliveries))
        page = await client.integrations.events(args.id, limit=size, offset=len(deliveries))
        deliveries.extend(page)
        if len(page) < size:
            break
    wanted = (d for d in deliveries if d.failed or not args.failed)
    out.many(shown_deliveries(wanted, reveal=args.reveal))
