"""Archiving flags, and the archived ones: list, find and revive them (AdminClient inherits
these methods).

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

from collections.abc import Awaitable, Iterable, Sequence
from typing import Any, Protocol
from urllib.parse import quote

from flagtui.api import errors
from flagtui.api.models import Feature, FeaturePage

ARCHIVE_PAGE_MAX = 100


class _Host(Protocol):
    """What these methods need of the AdminClient they are mixed into."""

    def search_features(
        self,
        *,
        query: str | None = ...,
        project: str | None = ...,
        types: Sequence[str] = ...,
        states: Sequence[str] = ...,
        lifecycle: Sequence[str] = ...,
        sort_by: str = ...,
        sort_order: str = ...,
        offset: int = ...,
        limit: int = ...,
        archived: bool = ...,
    ) -> Awaitable[FeaturePage]: ...
    def get_feature(self, project: str, feature: str) -> Awaitable[Feature]: ...
    def _write(self, action: str, method: str, path: str, *, json: Any = ...) -> Awaitable[Any]: ...
    def _require_writable(self, action: str) -> None: ...
    async def get_feature_or_archived(self: _Host, project: str, feature: str) -> Feature: ...
    async def revive_features(self: _Host, project: str, features: Iterable[str]) -> None: ...
    async def list_archived_features(
        self: _Host,
        project: str,
        *,
        query: str | None = ...,
        sort_by: str = ...,
        sort_order: str = ...,
        offset: int = ...,
        limit: int = ...,
    ) -> FeaturePage: ...
    async def find_archived_feature(self: _Host, project: str, feature: str) -> Feature | None: ...


class ArchiveOperations:
    async def list_archived_features(
        self: _Host,
        project: str,
        *,
        query: str | None = None,
        sort_by: str = "archivedAt",
        sort_order: str = "desc",
        offset: int = 0,
        limit: int = 50,
    ) -> FeaturePage:
        """One page of a project's archived flags, newest archived first by default. Each is
        marked `archived=True` (search items only carry `archivedAt`)."""
        page = await self.search_features(
            project=project,
            query=query,
            archived=True,
            sort_by=sort_by,
            sort_order=sort_order,
            offset=offset,
            limit=limit,
        )
        features = [_marked(f) for f in page.features if f.archived_at is not None]
        return page.model_copy(update={"features": features})

    async def find_archived_feature(self: _Host, project: str, feature: str) -> Feature | None:
        """The archived flag of that exact name (the search's query matches substrings)."""
        page = await self.list_archived_features(
            project, query=feature, sort_by="name", sort_order="asc", limit=ARCHIVE_PAGE_MAX
        )
        return next((f for f in page.features if f.name == feature), None)

    async def get_feature_or_archived(self: _Host, project: str, feature: str) -> Feature:
        """The live flag, or the archived one (its search row: no strategies) when the live read
        is a 404. The 404 stands when the archive does not have it either."""
        try:
            return await self.get_feature(project, feature)
        except errors.NotFoundError:
            archived = await self.find_archived_feature(project, feature)
            if archived is None:
                raise
            return archived

    async def archive_feature(self: _Host, project: str, feature: str) -> Feature:
        """Archive one live flag with Unleash's archive; the flag as it was just before (which
        environments it was on in). Already archived: NothingToSend; unknown: NotFoundError."""
        self._require_writable("archive feature")
        current = await self.get_feature_or_archived(project, feature)
        if current.is_archived:
            raise errors.NothingToSend(feature, "already archived", "archive")
        path = f"/api/admin/projects/{quote(project, safe='')}/features/{quote(feature, safe='')}"
        await self._write("archive feature", "DELETE", path)
        return current

    async def revive_feature(self: _Host, project: str, feature: str) -> Feature:
        """Revive one archived flag: every environment comes back off. Its archive row as it
        was before (the environments it was on in). Live: NothingToSend; unknown: NotFound."""
        self._require_writable("revive feature")
        current = await self.get_feature_or_archived(project, feature)
        if not current.is_archived:
            raise errors.NothingToSend(feature, "not archived", "revive")
        await self.revive_features(project, [feature])
        return current

    async def revive_features(self: _Host, project: str, features: Iterable[str]) -> None:
        """Bring archived flags back: real Unleash restarts their lifecycle and disables every
        environment. Names that are unknown or not archived are skipped by the server."""
        names = list(dict.fromkeys(features))
        if not names or not all(isinstance(n, str) and n for n in names):
            raise errors.InvalidArgument("features", "at least one feature name")
        path = f"/api/admin/projects/{quote(project, safe='')}/revive"
        await self._write("revive features", "POST", path, json={"features": names})


def _marked(feature: Feature) -> Feature:
    return feature if feature.archived else feature.model_copy(update={"archived": True})
