"""`flagtui failures`: deliveries that did not fully succeed, across integrations, newest first.

There is no delivery archive yet: this reads the server, which keeps only recent deliveries
(real Unleash: about 100 of the last 2 hours, plus the latest per integration). One
`list_addons` request, then one request per integration for its newest 100 deliveries.
`--follow` reads again every `--interval` seconds and prints each new failure as a JSON line.
"""

from __future__ import annotations

import argparse
import asyncio

from flagtui.api import AdminClient
from flagtui.api.models import IntegrationEvent
from flagtui.cli.exits import FAILURES_FOUND, OK
from flagtui.cli.output import Printer, record
from flagtui.cli.reads import aware, since_cutoff

WINDOW = 100


async def read_failures(client: AdminClient, args: argparse.Namespace) -> list[IntegrationEvent]:
    addons = (await client.list_addons()).addons
    ids = [a.id for a in addons if args.integration is None or a.id == args.integration]
    if args.integration is not None and not ids:
        # The server's own answer for an unknown id (a 404 on the contract's sandbox).
        await client.list_integration_events(args.integration, limit=1)
    pages = await asyncio.gather(*(client.list_integration_events(i, limit=WINDOW) for i in ids))
    cutoff = since_cutoff(args.since)
    found = [
        d
        for page in pages
        for d in page
        if d.failed and (cutoff is None or aware(d.created_at) >= cutoff)
    ]
    found.sort(
        key=lambda d: (aware(d.created_at), int(d.id) if d.id.isdigit() else 0), reverse=True
    )
    return found


async def failures(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    found = await read_failures(client, args)
    if args.follow:
        return await _follow(client, out, args, found)
    out.many(found)
    return FAILURES_FOUND if args.fail_on_failures and found else OK


async def _follow(
    client: AdminClient, out: Printer, args: argparse.Namespace, found: list[IntegrationEvent]
) -> int:
    """Print what is there (oldest first), then each new failure as it appears, until stopped."""
    seen: set[tuple[int, str]] = set()
    while True:
        for delivery in reversed(found):
            key = (delivery.integration_id, delivery.id)
            if key not in seen:
                seen.add(key)
                out.line(record(delivery))
        await asyncio.sleep(args.interval)
        found = await read_failures(client, args)
