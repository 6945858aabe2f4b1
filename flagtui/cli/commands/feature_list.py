"""`flagtui feature list`: flags, every page (up to a bound, said on stderr when met); a project's
archived flags with `--archived`.

The first page's search is sent before the client is made, with the standard library's HTTP
(`first_page_alone`, through `flagtui/api/early_search.py`, the TUI's early read: the client's
own request, the same URL, query, headers and certificate checks). A listing that fits in that
page is answered without asyncio, httpx or the client (0.06 s of the 0.23 s a script waited,
bench/README.md), and the models load while the search travels (0.55 round trips waited for
against 2 before, through the bench's delay proxy); a longer one hands the page on and the
client reads the rest. Anything but a success the client's model accepts is left to the
client, which sends the search again and says what went wrong, so errors read as they always
did; a timeout is said at once, not waited for twice."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable

from flagtui.cli.exits import OK, UsageError
from flagtui.cli.output import Printer, say
from flagtui.cli.session import scriptable

TYPE_CHECKING = False  # typing's, without importing typing (3 ms of a command's start)
if TYPE_CHECKING:
    from flagtui.api import AdminClient, FeatureQuery
    from flagtui.api.models import Feature, FeaturePage
    from flagtui.config import Profile

FEATURE_COLUMNS = ("project", "name", "type", "stale", "createdAt")
FEATURE_PAGE = 100
MAX_FEATURE_PAGES = 100  # 10,000 flags: a bound, not a limit anyone should meet
# Waits per page: real Unleash's search budget is a minute; a server that keeps refusing ends it.
SEARCH_WAITS = 3


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_list, columns=FEATURE_COLUMNS, answer_alone=first_page_alone)
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
    first: FeaturePage | None = getattr(args, "first_page", None)
    if first is not None:  # its search spends the client's budget too
        client.features.searched_elsewhere()
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


def first_page_alone(profile: Profile, out: Printer, args: argparse.Namespace) -> int | None:
    """The first page's search, sent without the client (see the module's docstring): OK
    when that page was the whole listing, printed; else None, the page (if any) handed on in
    `args.first_page`. A profile whose token comes from its token_command is left to the
    client: the command runs once."""
    from flagtui.profile import asks_token_command

    if args.archived or asks_token_command(profile):
        return None
    from flagtui.api.early_search import send_search
    from flagtui.config import resolve_token

    token = resolve_token(profile).token  # its failure is the client's: said the same way
    try:
        answer = send_search(
            profile.url, token, _query(args, 0), verify=profile.verify, timeout=profile.timeout
        )
        page = answer() if answer is not None else None  # its models load as it travels
    except TimeoutError:
        from flagtui.api.errors import RequestTimeout
        from flagtui.api.feature_query import SEARCH_PATH

        said = f"no complete answer within {profile.timeout:g} s"  # the client's words
        raise RequestTimeout("GET", SEARCH_PATH, message=said, profile=profile.name) from None
    except Exception:  # refused, unreadable, not the model: the client asks and says why
        return None
    if page is None:
        return None
    if page.features and page.total > FEATURE_PAGE:
        args.first_page = page
        return None
    out.many(page.features)
    return OK


def _query(args: argparse.Namespace, offset: int) -> FeatureQuery:
    from flagtui.api.feature_query import FeatureQuery

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
    import asyncio  # loaded by then: the command runs in its loop (not imported for --help)

    from flagtui.api import RateLimited

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
