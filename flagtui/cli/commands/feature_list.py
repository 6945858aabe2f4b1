"""`flagtui feature list`: flags, every page (up to a bound, said on stderr when met); a project's
archived flags with `--archived`.

The live flags' first page is searched while the client connects (its search needs nothing the
server's version decides), so a listing that fits in one page waits one round trip; each page
after it, one more. The archived flags' search depends on the version: it waits for it."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from flagtui.api import RateLimited
from flagtui.api.feature_query import FeatureQuery
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer, say
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature, FeaturePage

FEATURE_COLUMNS = ("project", "name", "type", "stale", "createdAt")
FEATURE_PAGE = 100
MAX_FEATURE_PAGES = 100  # 10,000 flags: a bound, not a limit anyone should meet
# Waits per page: real Unleash's search budget is a minute; a server that keeps refusing ends it.
SEARCH_WAITS = 3


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_list, columns=FEATURE_COLUMNS)
    p.set_defaults(connect_first=False)  # `feature_list` connects beside its first page
    p.add_argument("--project")
    p.add_argument("--search", help="name or description contains")
    p.add_argument("--type", action="append", help="flag type (repeatable)")
    p.add_argument("--state", action="append", help="stale or active (repeatable)")
    p.add_argument("--archived", action="store_true", help="archived flags (needs --project)")


async def feature_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    if args.archived and not args.project:
        raise UsageError("--archived needs --project (archived flags are per project)")
    stream = out.format == "jsonl"  # one record a line as each page comes, not at the end
    features: list[Feature] = []
    offset = 0
    first: FeaturePage | None = None
    if args.archived:
        await client.connect()  # which search finds archived flags depends on the version
    else:
        first = await _connected_with_first_page(client, args)
    for _ in range(MAX_FEATURE_PAGES):
        if first is not None:
            page, first = first, None
        elif args.archived:
            page = await client.archived.list(
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
    else:  # the bound: said, in every format (never a silent cut)
        shown = min(offset, page.total)
        say(
            out,
            f"feature list: showing the first {shown} of {page.total} flags"
            f" (at most {MAX_FEATURE_PAGES} pages of {FEATURE_PAGE}; narrow it with --project,"
            " --search, --type or --state)",
            {"shown": shown, "total": page.total, "cut": "pages"},
        )
    if not stream:
        out.many(features)


async def _connected_with_first_page(client: AdminClient, args: argparse.Namespace) -> FeaturePage:
    """The client connected and the first page read, both sent at once; a failure to connect
    is said first, as when it connects alone."""
    connected, page = await asyncio.gather(
        client.connect(), _searched(client, args, 0), return_exceptions=True
    )
    for failed in (connected, page):
        if isinstance(failed, BaseException):
            raise failed
    assert not isinstance(page, BaseException)
    return page


def _query(args: argparse.Namespace, offset: int) -> FeatureQuery:
    return FeatureQuery(
        query=args.search,
        project=args.project,
        types=args.type or (),
        states=args.state or (),
        offset=offset,
        limit=FEATURE_PAGE,
    )


async def _searched(client: AdminClient, args: argparse.Namespace, offset: int) -> FeaturePage:
    """Real Unleash answers 15 feature searches a minute: a listing of more pages than that waits
    for the next search, saying so on stderr, rather than ending half-way."""

    def search() -> Awaitable[FeaturePage]:
        return client.features.search(_query(args, offset))

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
