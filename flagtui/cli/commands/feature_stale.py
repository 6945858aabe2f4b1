"""`flagtui feature stale PROJECT`: the flags an admin walks through once a month: stale and
potentially stale, oldest first, each with its age, its type's lifetime, who created it, when an
SDK last saw it (per environment) and whether it is on in production. Archive from it:

    flagtui feature stale P -o json | jq -r '.[].name' | flagtui feature archive P --stdin
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature
    from flagtui.cli.output import Printer

COLUMNS = ("name", "state", "ageDays", "type", "lifetimeDays", "createdBy", "lastSeenAt",
           "onInProduction")  # fmt: skip
PAGE = 100
MAX_PAGES = 20  # 2,000 stale flags: a project past that is cut, and says so


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_stale, columns=COLUMNS)
    p.add_argument("project")


async def feature_stale(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api.feature_query import FeatureQuery
    from flagtui.cli.output import say

    lifetimes = {t.id: t.lifetime_days for t in await client.feature_types.list()}
    flags: list[Feature] = []
    total = 0
    for page_number in range(MAX_PAGES):
        query = FeatureQuery(
            project=args.project,
            states=("stale", "potentially-stale"),
            sort_by="createdAt",
            offset=page_number * PAGE,
            limit=PAGE,
        )
        page = await client.features.search(query)
        flags.extend(page.features)
        total = page.total
        if len(flags) >= total or not page.features:
            break
    now = datetime.now(UTC)
    out.many([_row(flag, lifetimes, now) for flag in flags])
    if len(flags) < total:
        said = f"showing the oldest {len(flags)} of {total} stale flags"
        say(out, said, {"complete": False, "shown": len(flags), "total": total})


def _row(flag: Feature, lifetimes: dict[str, int | None], now: datetime) -> dict[str, Any]:
    environments = flag.environments or []
    seen = {e.name: e.last_seen_at.isoformat() if e.last_seen_at else None for e in environments}
    return {
        "name": flag.name,
        "state": "stale" if flag.stale else "potentially stale",
        "ageDays": (now - flag.created_at).days if flag.created_at else None,
        "type": flag.type,
        "lifetimeDays": lifetimes.get(flag.type or ""),
        "createdBy": flag.created_by.name if flag.created_by else None,
        "lastSeenAt": flag.last_seen_at.isoformat() if flag.last_seen_at else None,
        "lastSeenIn": seen,
        "onInProduction": [e.name for e in environments if e.enabled and e.type == "production"],
    }
