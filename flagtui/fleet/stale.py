"""The flags an admin walks through once a month: a project's stale and potentially stale
flags, oldest first, each with its age, its type's lifetime, who created it, when an SDK last
saw it (per environment) and where it is on in production. `flagtui feature stale` prints the
rows; the TUI's stale view shows them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flagtui.api.feature_query import FeatureQuery
from flagtui.value import Value

if TYPE_CHECKING:  # `feature stale --help` imports this module (its COLUMNS)
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature

COLUMNS = ("name", "state", "ageDays", "type", "lifetimeDays", "createdBy", "lastSeenAt",
           "onInProduction")  # fmt: skip
PAGE = 100
MAX_PAGES = 20  # 2,000 stale flags: a project past that is cut, and says so


class StaleFlags(Value):
    def __init__(self, rows: list[dict[str, Any]], total: int) -> None:
        self.rows = rows
        self.total = total  # as the server counts them: more than len(rows) when the list was cut

    @property
    def complete(self) -> bool:
        return len(self.rows) >= self.total


async def read_stale(client: AdminClient, project: str) -> StaleFlags:
    lifetimes = {t.id: t.lifetime_days for t in await client.feature_types.list()}
    flags: list[Feature] = []
    total = 0
    for page_number in range(MAX_PAGES):
        query = FeatureQuery(
            project=project,
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
    return StaleFlags([_row(flag, lifetimes, now) for flag in flags], total)


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
