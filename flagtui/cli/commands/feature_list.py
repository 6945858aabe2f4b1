"""`flagtui feature list`: flags, every page (up to a bound, said on stderr when met); a project's
archived flags with `--archived`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable

from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer, say
from flagtui.cli.session import scriptable

TYPE_CHECKING = False  # typing's, without importing typing (3 ms of a command's start)
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
    for _ in range(MAX_FEATURE_PAGES):
        if args.archived:
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


async def _searched(client: AdminClient, args: argparse.Namespace, offset: int) -> FeaturePage:
    """Real Unleash answers 15 feature searches a minute: a listing of more pages than that waits
    for the next search, saying so on stderr, rather than ending half-way."""
    import asyncio  # loaded by then: the command runs in its loop (not imported for --help)

    from flagtui.api import FeatureQuery, RateLimited

    def search() -> Awaitable[FeaturePage]:
        return client.features.search(
            FeatureQuery(
                query=args.search,
                project=args.project,
                types=args.type or (),
                states=args.state or (),
                offset=offset,
                limit=FEATURE_PAGE,
            )
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
