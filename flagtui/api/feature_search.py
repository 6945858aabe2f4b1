"""Feature search and its budget (AdminClient inherits these methods).

Real Unleash allows 15 feature searches a minute per client: identical searches are cached for
FEATURE_SEARCH_CACHE_S (any write empties the cache), and a search the budget cannot pay for is
answered from the project's feature list when it can (see `search_budget`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Sequence
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter

from flagtui.api import capabilities, errors, validation
from flagtui.api.models import Feature, FeaturePage, ServerInfo
from flagtui.api.search_budget import SearchBudget, list_can_answer, page_from_list
from flagtui.api.wire import adapter

T = TypeVar("T")
FEATURE_SEARCH_CACHE_S = 30.0
REAL_SEARCH_BUDGET = (14, 60.0)  # real Unleash: 15 a minute per client; one kept in reserve

_FEATURE_PAGE = adapter(FeaturePage)


class _Host(Protocol):
    """What these methods need of the AdminClient they are mixed into."""

    profile: str
    server: ServerInfo | None
    _search_cache: dict[tuple[Any, ...], tuple[float, Any]]
    _search_budget: SearchBudget

    def _require_version(self, area: str) -> None: ...
    def _read(
        self, method: str, path: str, adapter: TypeAdapter[T], **kwargs: Any
    ) -> Awaitable[T]: ...
    def list_project_features(self, project: str) -> Awaitable[list[Feature]]: ...
    def _cached(self: _Host, key: tuple[Any, ...]) -> Any: ...
    async def _project_features_cached(
        self: _Host, project: str, *, fresh: bool
    ) -> list[Feature]: ...
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
        fresh: bool = ...,
        archived: bool = ...,
    ) -> Awaitable[FeaturePage]: ...


class FeatureSearchOperations:
    async def search_features(
        self: _Host,
        *,
        query: str | None = None,
        project: str | None = None,
        types: Sequence[str] = (),
        states: Sequence[str] = (),
        lifecycle: Sequence[str] = (),
        sort_by: str = "name",
        sort_order: str = "asc",
        offset: int = 0,
        limit: int = 50,
        fresh: bool = False,
        archived: bool = False,
    ) -> FeaturePage:
        """Server-side search. See `search_budget` for how real Unleash's
        15-a-minute limit is spent: cached, then answered from the project list when it can.
        `fresh` (a reload the user asked for) skips the cache: the answer is the server's now,
        or RateLimited saying when the budget allows the next search. `archived` asks for the
        archived flags, in the way this server's version understands; so does the `archived`
        stage in `lifecycle` (the features area's archived view)."""
        lifecycle, archived = _archived_stage(lifecycle, archived)
        params, cache_key = _search_params(
            self,
            query=query,
            project=project,
            types=types,
            states=states,
            lifecycle=lifecycle,
            sort_by=sort_by,
            sort_order=sort_order,
            offset=offset,
            limit=limit,
            archived=archived,
        )
        cached = None if fresh else self._cached(cache_key)
        if cached is not None:
            return cached
        wait = self._search_budget.wait()
        if wait == 0:
            try:
                self._search_budget.spend()
                page = await self._read(
                    "GET", "/api/admin/search/features", _FEATURE_PAGE, params=params
                )
                self._search_cache[cache_key] = (time.monotonic(), page)
                return page
            except errors.RateLimited as exc:
                self._search_budget.exhaust()
                wait = exc.retry_after
                if archived or not list_can_answer(project, states, lifecycle, sort_by):
                    raise
        elif archived or not list_can_answer(project, states, lifecycle, sort_by):
            path = "/api/admin/search/features"
            raise errors.RateLimited(
                "GET",
                path,
                retry_after=round(wait, 1),
                message="flagtui holds back: real Unleash allows 15 feature searches a minute",
                profile=self.profile,
            )
        assert project is not None
        return page_from_list(
            await self._project_features_cached(project, fresh=fresh),
            query=query,
            types=types,
            states=states,
            sort_by=sort_by,
            sort_order=sort_order,
            offset=offset,
            limit=limit,
        )

    def held_features(self: _Host, **search: Any) -> FeaturePage | None:
        """The page a search would be answered with from the cache, without waiting: None if
        it is not held (or the search is one this server refuses)."""
        try:
            page: FeaturePage | None = self._cached(_search_params(self, **search)[1])
            return page
        except errors.FlagtuiError:
            return None

    async def prefetch_features(self: _Host, **search: Any) -> bool:
        """Read a page the user is likely to open next (the following one) into the search
        cache, only while at least half of the search budget is unspent: it never costs a
        search the user asks for. True if the page is now cached."""
        if self._search_budget.spare() * 2 < self._search_budget.limit:
            return False
        await self.search_features(**search)
        return True

    def _cached(self: _Host, key: tuple[Any, ...]) -> Any:
        hit = self._search_cache.get(key)
        if hit and time.monotonic() - hit[0] < FEATURE_SEARCH_CACHE_S:
            return hit[1]
        return None

    async def _project_features_cached(self: _Host, project: str, *, fresh: bool) -> list[Feature]:
        key = ("project-list", project)
        cached = None if fresh else self._cached(key)
        if cached is None:
            cached = await self.list_project_features(project)
            self._search_cache[key] = (time.monotonic(), cached)
        return cached


def _search_params(
    host: _Host,
    *,
    query: str | None = None,
    project: str | None = None,
    types: Sequence[str] = (),
    states: Sequence[str] = (),
    lifecycle: Sequence[str] = (),
    sort_by: str = "name",
    sort_order: str = "asc",
    offset: int = 0,
    limit: int = 50,
    archived: bool = False,
) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """The search's query parameters, and the key its answer is cached under."""
    lifecycle, archived = _archived_stage(lifecycle, archived)
    params: dict[str, Any] = {
        "sortBy": sort_by,
        "sortOrder": sort_order,
        "offset": validation.non_negative("offset", offset),
        "limit": validation.non_negative("limit", limit),
    }
    if query:
        params["query"] = query
    if project:
        params["project"] = f"IS:{project}"
    if archived:
        host._require_version(capabilities.ARCHIVED_FLAGS)
    if archived and capabilities.archived_by_lifecycle(host.server):
        lifecycle = [*lifecycle, "archived"]
    elif archived:
        params["archived"] = "IS:true"
    for name, values in (("type", types), ("state", states), ("lifecycle", lifecycle)):
        if values:
            params[name] = _is_any_of(values)
    cache_key = tuple(sorted(params.items()))
    return params, cache_key


def _archived_stage(lifecycle: Sequence[str], archived: bool) -> tuple[Sequence[str], bool]:
    """The `archived` stage asks for the archived flags, however this server's version takes it."""
    if "archived" in lifecycle:
        return [s for s in lifecycle if s != "archived"], True
    return lifecycle, archived


def _is_any_of(values: Sequence[str]) -> str:
    return f"IS:{values[0]}" if len(values) == 1 else f"IS_ANY_OF:{','.join(values)}"
