"""The scriptable reads: features, events, integrations, users, types, environments, change
requests. Each is `async (client, printer, args) -> exit code | None` over the AdminClient."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Iterable
from datetime import UTC, datetime, timedelta

from flagtui.api import AdminClient
from flagtui.api.errors import RateLimited
from flagtui.api.models import EventRecord, Feature, FeaturePage, IntegrationEvent
from flagtui.api.validation import event_search_limit
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.masking import masked_addon, masked_delivery, sensitive_names
from flagtui.triage.source import aware

FEATURE_PAGE = 100
MAX_FEATURE_PAGES = 100  # 10,000 flags: a bound, not a limit anyone should meet
# Waits per page: real Unleash's search budget is a minute; a server that keeps refusing ends it.
SEARCH_WAITS = 3
DELIVERY_PAGE = 100  # real Unleash answers 50 to a limit over 100: a larger --limit is paged


async def feature_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    if args.archived and not args.project:
        raise UsageError("--archived needs --project (archived flags are per project)")
    stream = out.format == "jsonl"  # one record a line as each page comes, not at the end
    features: list[Feature] = []
    offset = 0
    for _ in range(MAX_FEATURE_PAGES):
        if args.archived:
            page = await client.list_archived_features(
                args.project, query=args.search, offset=offset, limit=FEATURE_PAGE
            )
        else:
            page = await _searched(client, args, offset)
        if stream:
            out.many(page.features)
        else:
            features.extend(page.features)
        offset += FEATURE_PAGE
        if offset >= page.total or not page.features:
            break
    if not stream:
        out.many(features)


async def _searched(client: AdminClient, args: argparse.Namespace, offset: int) -> FeaturePage:
    """Real Unleash answers 15 feature searches a minute: a listing of more pages than that waits
    for the next search, saying so on stderr, rather than ending half-way."""

    def search() -> Awaitable[FeaturePage]:
        return client.search_features(
            query=args.search,
            project=args.project,
            types=args.type or (),
            states=args.state or (),
            offset=offset,
            limit=FEATURE_PAGE,
        )

    for _ in range(SEARCH_WAITS):
        try:
            return await search()
        except RateLimited as exc:
            print(
                f"flagtui: feature list: the server allows 15 feature searches a minute;"
                f" waiting {exc.retry_after:g} s",
                file=sys.stderr,
                flush=True,
            )
            await asyncio.sleep(exc.retry_after)
    return await search()


async def feature_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.one(await client.get_feature(args.project, args.name))


def since_cutoff(since: timedelta | None) -> datetime | None:
    """The oldest time `--since` keeps; `--since 0s` is now (nothing older), no --since is None."""
    return datetime.now(UTC) - since if since is not None else None


async def event_search(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Newest first, at most --limit events, none older than --since (pages until then)."""
    event_search_limit(args.limit)  # checked here too: a limit under 1 would skip the loop
    cutoff = since_cutoff(args.since)
    stream = out.format == "jsonl"
    found: list[EventRecord] = []
    cursor = None
    while len(found) < args.limit:
        page = await client.search_events(
            type=args.type,
            project=args.project,
            feature=args.feature,
            query=args.query,
            limit=args.limit,
            cursor=cursor,
        )
        fresh = [e for e in page.events if cutoff is None or aware(e.created_at) >= cutoff]
        if stream:
            out.many(fresh[: args.limit - len(found)])
        found.extend(fresh)
        if cutoff is None or len(fresh) < len(page.events) or page.next_cursor is None:
            break
        cursor = page.next_cursor
    if not stream:
        out.many(found[: args.limit])


def shown_delivery(delivery: IntegrationEvent, *, reveal: bool) -> IntegrationEvent:
    """A delivery as printed: masked (flagtui/masking.py) unless --reveal."""
    return delivery if reveal else masked_delivery(delivery)


def shown_deliveries(
    deliveries: Iterable[IntegrationEvent], *, reveal: bool
) -> list[IntegrationEvent]:
    return [shown_delivery(d, reveal=reveal) for d in deliveries]


async def integration_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Parameters masked unless --reveal: Unleash masks those its providers mark sensitive,
    not a body template or headers that hold a secret."""
    listed = await client.list_addons()
    if args.reveal:
        out.many(listed.addons)
        return
    sensitive = sensitive_names(listed)
    out.many(masked_addon(a, sensitive.get(a.provider, set())) for a in listed.addons)


async def integration_deliveries(
    client: AdminClient, out: Printer, args: argparse.Namespace
) -> None:
    """The newest --limit deliveries (then --failed keeps the failed ones among them)."""
    if args.limit < 1:
        raise UsageError(f"--limit: at least 1 (it is {args.limit})")
    deliveries: list[IntegrationEvent] = []
    while len(deliveries) < args.limit:
        size = min(DELIVERY_PAGE, args.limit - len(deliveries))
        page = await client.list_integration_events(args.id, limit=size, offset=len(deliveries))
        deliveries.extend(page)
        if len(page) < size:
            break
    wanted = (d for d in deliveries if d.failed or not args.failed)
    out.many(shown_deliveries(wanted, reveal=args.reveal))


async def user_search(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many((await client.search_users(args.query)).users)


async def type_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.list_feature_types())


async def env_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.list_project_environments(args.project))


async def cr_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(await client.list_change_requests(args.project))


async def cr_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.one(await client.get_change_request(args.project, args.id))
