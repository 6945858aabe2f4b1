"""`client.archived`: a project's archived flags (list, find, revive many). Archiving or reviving
one flag is `client.features.archive` / `.revive`. (Not `flagtui.archive`, the delivery archive.)

The contract has no archive operations; these use real Unleash's, which the sandbox serves the
same way: a flag is archived with DELETE /projects/:p/features/:f (202; records
`feature-archived` and moves the lifecycle to `archived`, as the web UI does; a PATCH of
`/archived` does neither, see `intent`); archived flags are found by the feature search
(`lifecycle=IS:archived` on 8.2, `archived=IS:true` before; the live read of an archived flag is
a 404) and revived with POST /projects/:p/revive `{features: [names]}` (200, no body; unknown or
live names skipped; every environment off). Real Unleash archives an archived flag again (one
more event) and answers 200 to reviving a live one, so the one-flag writes read it first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from flagtui.api import errors
from flagtui.api.core import Core
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import Feature, FeaturePage
from flagtui.api.wire import seg
from flagtui.contract import PAGE_DEFAULT, PAGE_MAX


class ArchivedFlags:
    def __init__(
        self, core: Core, search: Callable[[FeatureQuery], Awaitable[FeaturePage]]
    ) -> None:
        self._core = core
        self._search = search  # archived flags are found by the feature search (its budget)

    async def list(
        self,
        project: str,
        *,
        query: str | None = None,
        sort_by: str = "archivedAt",
        sort_order: str = "desc",
        offset: int = 0,
        limit: int = PAGE_DEFAULT,
    ) -> FeaturePage:
        """One page of a project's archived flags, newest archived first by default. Each is
        marked `archived=True` (search items only carry `archivedAt`)."""
        q = FeatureQuery(
            project=project,
            query=query,
            archived=True,
            sort_by=sort_by,
            sort_order=sort_order,
            offset=offset,
            limit=limit,
        )
        page = await self._search(q)
        features = [_marked(f) for f in page.features if f.archived_at is not None]
        return page.model_copy(update={"features": features})

    async def find(self, project: str, feature: str) -> Feature | None:
        """The archived flag of that exact name (the search's query matches substrings)."""
        page = await self.list(
            project, query=feature, sort_by="name", sort_order="asc", limit=PAGE_MAX
        )
        return next((f for f in page.features if f.name == feature), None)

    async def revive_many(self, project: str, features: Iterable[str]) -> None:
        """Bring archived flags back: real Unleash restarts their lifecycle and disables every
        environment. Names that are unknown or not archived are skipped by the server."""
        names = list(dict.fromkeys(features))
        if not names or not all(isinstance(n, str) and n for n in names):
            raise errors.InvalidArgument("features", "at least one feature name")
        path = f"/api/admin/projects/{seg(project)}/revive"
        await self._core.write("revive features", "POST", path, json={"features": names})


def _marked(feature: Feature) -> Feature:
    return feature if feature.archived else feature.model_copy(update={"archived": True})
