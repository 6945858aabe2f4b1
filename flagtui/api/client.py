"""AdminClient: one per profile; every contract operation and every browse read is one method.

Read-only profiles are enforced here, once, in `_write`, before any request is built.
Capabilities (edition, event search route) come from ui-config on `connect()`. Other reads need
not wait for it: the app builds its first screen and sends that screen's reads while connecting.
A request that fails while the connection fails too raises `NotConnected` (one error to show,
the connection's), see `_read`. Every request's outcome goes to `health` (is the server
answering?), which the UI watches.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import TypeAdapter

from flagtui.api import capabilities, errors, validation
from flagtui.api.addons import AddonOperations
from flagtui.api.archive import ArchiveOperations
from flagtui.api.capabilities import event_search_route, server_info
from flagtui.api.health import Health
from flagtui.api.models import (
    AddonList,
    ChangeRequest,
    EventPage,
    Feature,
    FeaturePage,
    FeatureType,
    Group,
    IntegrationEvent,
    PatchOperation,
    Project,
    ProjectAccess,
    ProjectEnvironment,
    Role,
    ServerInfo,
    User,
    UserList,
)
from flagtui.api.search_budget import SearchBudget, list_can_answer, page_from_list
from flagtui.api.transport import DEFAULT_RETRY_DELAYS, Transport
from flagtui.api.wire import (
    ChangeRequestList,
    EventSearchAnswer,
    FeatureList,
    FeatureTypes,
    GroupsAnswer,
    IntegrationEvents,
    ProjectEnvironments,
    ProjectsAnswer,
    RawObject,
    RolesAnswer,
    UserSearchAnswer,
)

T = TypeVar("T")
FEATURE_SEARCH_CACHE_S = 30.0
REAL_SEARCH_BUDGET = (14, 60.0)  # real Unleash: 15 a minute per client; one kept in reserve


def _seg(value: str | int) -> str:
    return quote(str(value), safe="")


@functools.cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    """One per model: building a TypeAdapter builds its schema (about 1 ms per request)."""
    return TypeAdapter(model)


_FEATURE = _adapter(Feature)
_FEATURE_TYPE = _adapter(FeatureType)
_CHANGE_REQUEST = _adapter(ChangeRequest)
_PROJECT_ACCESS = _adapter(ProjectAccess)
_ADDONS = _adapter(AddonList)
_FEATURE_PAGE = _adapter(FeaturePage)
_RAW = _adapter(RawObject)


class AdminClient(ArchiveOperations, AddonOperations):  # archived flags (`archive`), addons
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        profile: str = "default",
        read_only: bool = False,
        timeout: float = 10.0,
        verify: bool | str = True,
        retry_delays: Sequence[float] = DEFAULT_RETRY_DELAYS,
        transport: httpx.AsyncBaseTransport | None = None,
        search_budget: tuple[int, float] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.profile = profile
        self.read_only = read_only
        self.server: ServerInfo | None = None
        self.health = Health()
        self._http = Transport(
            self.base_url,
            token,
            profile=profile,
            timeout=timeout,
            verify=verify,
            retry_delays=retry_delays,
            transport=transport,
        )
        self._event_route: str | None = None
        self._connecting: asyncio.Event | None = None
        self._connect_error: Exception | None = None
        self._search_cache: dict[tuple[Any, ...], tuple[float, Any]] = {}
        self._explicit_budget = search_budget is not None
        self._search_budget = SearchBudget(*(search_budget or REAL_SEARCH_BUDGET))

    async def __aenter__(self) -> AdminClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def __repr__(self) -> str:
        lock = ", read-only" if self.read_only else ""
        return f"AdminClient({self.base_url!r}, profile={self.profile!r}{lock})"

    @property
    def requests_sent(self) -> int:
        return self._http.requests_sent

    # -- capabilities ---------------------------------------------------------------------------

    async def connect(self) -> ServerInfo:
        """Read ui-config: version and edition decide which operations and routes are used."""
        done = self._connecting = asyncio.Event()
        try:
            raw = await self._observed(self._http.read("GET", "/api/admin/ui-config", _RAW))
            self.server = server_info(raw)
            self._event_route = event_search_route(self.server)
            if self.server.sandbox and not self._explicit_budget:
                self._search_budget = SearchBudget(limit=1_000_000, window_s=60.0)
            self._connect_error = None
            return self.server
        except Exception as exc:
            self._connect_error = exc
            raise
        finally:
            done.set()

    async def _connected(self) -> None:
        """Wait for a `connect()` in flight; raise NotConnected if it failed."""
        if self._connecting is not None:
            await self._connecting.wait()
        if self._connect_error is not None:
            raise errors.NotConnected(self._connect_error) from None

    async def _observed(self, request: Awaitable[T]) -> T:
        """The request's answer or failure, recorded in `health`."""
        try:
            answer = await request
        except errors.ApiError as exc:
            self.health.failed(exc)
            raise
        self.health.succeeded()
        return answer

    async def _unless_disconnected(self, request: Awaitable[T]) -> T:
        """The request's answer; its failure, or NotConnected if connecting failed too."""
        try:
            return await self._observed(request)
        except errors.OutcomeUnknown:
            raise  # what the write may have done matters more than why connecting failed
        except errors.ApiError:
            await self._connected()
            raise

    async def _read(self, method: str, path: str, adapter: TypeAdapter[T], **kwargs: Any) -> T:
        return await self._unless_disconnected(self._http.read(method, path, adapter, **kwargs))

    def _require_enterprise(self, operation: str) -> None:
        if self.server is not None and not self.server.enterprise:
            raise errors.NotSupported(operation, self.server.label)

    async def _enterprise(self, operation: str, call: Callable[[], Awaitable[T]]) -> T:
        """Run an Enterprise-only call; OSS answers such paths 404 "not available"."""
        self._require_enterprise(operation)
        try:
            return await call()
        except errors.NotFoundError as exc:
            if "not available" in exc.message:
                raise errors.NotSupported(operation, self._server_label()) from None
            raise

    def _server_label(self) -> str:
        return self.server.label if self.server else "an Unleash without this route"

    def _require_version(self, area: str) -> None:
        """Refuse, before sending, what this server's version cannot serve."""
        needs = capabilities.missing(self.server, area)
        if needs is not None:
            assert self.server is not None
            raise errors.NotSupported(area, self.server.label, needs=needs)

    async def _versioned(self, area: str, call: Callable[[], Awaitable[T]]) -> T:
        """Run a call of an area that came in some version, possibly behind a flag: an older
        server, or one answering that the route is not available, says which version it needs."""
        if self._connecting is not None:
            await self._connecting.wait()  # the version decides
        self._require_version(area)
        try:
            return await call()
        except errors.NotFoundError as exc:
            # a route missing ("... is not available") or its flag off ("... is disabled.")
            if "not available" in exc.message or exc.message.endswith("is disabled."):
                needs = capabilities.flag_off_needs(self.server, area)
                raise errors.NotSupported(area, self._server_label(), needs=needs) from None
            raise

    # -- writes: the one read-only check ----------------------------------------------------------

    async def _write(
        self,
        action: str,
        method: str,
        path: str,
        adapter: TypeAdapter[T] | None = None,
        json: Any = None,
    ) -> T | None:
        if self.read_only:
            raise errors.ReadOnlyProfile(self.profile, action)
        self._search_cache.clear()
        request = self._http.write(method, path, adapter, json=json)
        return await self._unless_disconnected(request)

    # -- the nine operations of the contract -----------------------------------------------------

    async def patch_feature(
        self, project: str, feature: str, ops: Iterable[PatchOperation | Mapping[str, Any]]
    ) -> Feature:
        """Operation 1. Real Unleash answers a short row; then the full feature is read: from
        the archived flags if the patch archived it (the live read is a 404 then). The patch was
        applied once the server said so: if that read fails, its short answer is returned."""
        body = [op.to_wire() for op in validation.patch_operations(ops)]
        path = f"/api/admin/projects/{_seg(project)}/features/{_seg(feature)}"
        updated = await self._write("patch feature", "PATCH", path, _FEATURE, body)
        assert updated is not None
        if updated.is_full:
            return updated
        try:
            if updated.is_archived:
                return await self.find_archived_feature(project, feature) or updated
            return await self.get_feature(project, feature)
        except errors.FlagtuiError:
            return updated

    async def list_integration_events(
        self, addon_id: int | str, *, limit: int = 50, offset: int = 0
    ) -> list[IntegrationEvent]:
        """Operation 2: delivery outcomes of one integration configuration, newest first."""
        params = {
            "limit": validation.non_negative("limit", limit),
            "offset": validation.non_negative("offset", offset),
        }
        path = f"/api/admin/addons/{_seg(addon_id)}/events"
        answer = await self._versioned(
            capabilities.INTEGRATION_DELIVERIES,
            lambda: self._read("GET", path, _adapter(IntegrationEvents), params=params),
        )
        return answer.integration_events

    async def remove_project_environment(self, project: str, environment: str) -> None:
        """Operation 3."""
        path = f"/api/admin/projects/{_seg(project)}/environments/{_seg(environment)}"
        await self._write("remove environment", "DELETE", path)

    async def set_project_access(
        self, project: str, *, roles: Iterable[int], users: Iterable[int], groups: Iterable[int]
    ) -> None:
        """Operation 4 (Enterprise): each listed user and group gets each listed role."""
        body = {
            "roles": validation.id_list("roles", roles),
            "groups": validation.id_list("groups", groups),
            "users": validation.id_list("users", users),
        }
        if not body["roles"]:
            raise errors.InvalidArgument("roles", "at least one role")
        if not body["users"] and not body["groups"]:
            raise errors.InvalidArgument("users/groups", "at least one user or group")
        path = f"/api/admin/projects/{_seg(project)}/access"
        await self._enterprise(
            "Project access", lambda: self._write("grant access", "POST", path, json=body)
        )

    async def uncomplete_feature(self, project: str, feature: str) -> None:
        """Operation 5."""
        path = f"/api/admin/projects/{_seg(project)}/features/{_seg(feature)}/lifecycle/uncomplete"
        await self._versioned(
            capabilities.LIFECYCLE, lambda: self._write("mark uncompleted", "POST", path)
        )

    async def update_feature_type_lifetime(
        self, type_id: str, lifetime_days: int | None
    ) -> FeatureType:
        """Operation 6. None (or 0) means flags of this type never become potentially stale."""
        body = {"lifetimeDays": validation.lifetime_days(lifetime_days)}
        path = f"/api/admin/feature-types/{_seg(type_id)}/lifetime"
        area = capabilities.FEATURE_TYPE_LIFETIME
        try:
            updated = await self._versioned(
                area, lambda: self._write("update lifetime", "PUT", path, _FEATURE_TYPE, body)
            )
        except errors.ConflictError as exc:
            if exc.message:  # 5.3 and 5.4 with the flag off: 409 with an empty body
                raise
            needs = capabilities.flag_off_needs(self.server, area)
            raise errors.NotSupported(area, self._server_label(), needs=needs) from None
        assert updated is not None
        return updated

    async def search_users(self, q: str) -> UserList:
        """Operation 7. Accepts the contract's {users, rootRoles} and real Unleash's bare array."""
        params = {"q": validation.user_query(q)}
        answer: UserList | list[User] = await self._read(
            "GET", "/api/admin/user-admin/search", _adapter(UserSearchAnswer), params=params
        )
        return answer if isinstance(answer, UserList) else UserList(users=answer)

    async def delete_change_request(self, project: str, change_request_id: int | str) -> None:
        """Operation 8 (Enterprise)."""
        path = f"/api/admin/projects/{_seg(project)}/change-requests/{_seg(change_request_id)}"
        await self._enterprise(
            "Change requests", lambda: self._write("delete change request", "DELETE", path)
        )

    async def search_events(
        self,
        *,
        type: str | None = None,
        project: str | None = None,
        feature: str | None = None,
        query: str | None = None,
        limit: int = 100,
        cursor: int | None = None,
        since: dt.date | None = None,
        until: dt.date | None = None,
    ) -> EventPage:
        """Operation 9, newest first. `cursor` comes from the previous page's `next_cursor`.

        The contract's POST /events/search pages by event id; Unleash 7+ removed it for
        GET /search/events (from 6.1), which pages by row offset. The route is chosen on
        connect, and a 404 on the POST route switches to the GET one. Dates (`since`, `until`,
        both days included) exist on the GET route only, so they choose it.
        """
        validation.event_search_limit(limit)
        if cursor is not None:
            validation.non_negative("cursor", cursor)
        filters = {"type": type, "project": project, "feature": feature, "query": query}
        if self._connecting is not None:
            await self._connecting.wait()  # the route depends on the version
        if since is not None or until is not None:
            self._require_version(capabilities.EVENT_DATES)
            return await self._search_events_get(filters, limit, cursor, (since, until))
        if self._event_route != "get":
            try:
                return await self._search_events_post(filters, limit, cursor)
            except errors.NotFoundError:
                if self._event_route == "post":
                    raise
                self._event_route = "get"
        return await self._search_events_get(filters, limit, cursor)

    async def _search_events_post(
        self, filters: dict[str, str | None], limit: int, cursor: int | None
    ) -> EventPage:
        body: dict[str, Any] = {k: v for k, v in filters.items() if v}
        body["limit"] = limit
        if cursor:
            body["offset"] = cursor
        answer = await self._read(
            "POST", "/api/admin/events/search", _adapter(EventSearchAnswer), json=body
        )
        events = answer.events
        more = len(events) == limit and events and events[-1].id > 1
        return EventPage(
            events=events,
            total=answer.total_events,
            next_cursor=events[-1].id - 1 if more else None,
        )

    async def _search_events_get(
        self,
        filters: dict[str, str | None],
        limit: int,
        cursor: int | None,
        dates: tuple[dt.date | None, dt.date | None] = (None, None),
    ) -> EventPage:
        params: dict[str, Any] = {"limit": limit, "offset": cursor or 0}
        for key in ("type", "project", "feature"):
            if filters[key]:
                params[key] = f"IS:{filters[key]}"
        if filters["query"]:
            params["query"] = filters["query"]
        for name, day in zip(capabilities.event_date_params(self.server), dates, strict=True):
            if day is not None:
                params[name] = f"IS:{day.isoformat()}"
        answer = await self._read(
            "GET", "/api/admin/search/events", _adapter(EventSearchAnswer), params=params
        )
        events = answer.events
        seen = (cursor or 0) + len(events)
        total = answer.total if answer.total is not None else answer.total_events
        more = len(events) == limit and (total is None or seen < total)
        return EventPage(events=events, total=total, next_cursor=seen if more else None)

    # -- browse reads ----------------------------------------------------------------------------

    async def list_projects(self) -> list[Project]:
        answer = await self._read("GET", "/api/admin/projects", _adapter(ProjectsAnswer))
        return answer.projects

    async def search_features(
        self,
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
        archived flags, in the way this server's version understands."""
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
            self._require_version(capabilities.ARCHIVED_FLAGS)
        if archived and capabilities.archived_by_lifecycle(self.server):
            lifecycle = [*lifecycle, "archived"]
        elif archived:
            params["archived"] = "IS:true"
        for name, values in (("type", types), ("state", states), ("lifecycle", lifecycle)):
            if values:
                params[name] = _is_any_of(values)
        cache_key = tuple(sorted(params.items()))
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

    async def prefetch_features(self, **search: Any) -> bool:
        """Read a page the user is likely to open next (the following one) into the search
        cache, only while at least half of the search budget is unspent: it never costs a
        search the user asks for. True if the page is now cached."""
        if self._search_budget.spare() * 2 < self._search_budget.limit:
            return False
        await self.search_features(**search)
        return True

    def _cached(self, key: tuple[Any, ...]) -> Any:
        hit = self._search_cache.get(key)
        if hit and time.monotonic() - hit[0] < FEATURE_SEARCH_CACHE_S:
            return hit[1]
        return None

    async def _project_features_cached(self, project: str, *, fresh: bool) -> list[Feature]:
        key = ("project-list", project)
        cached = None if fresh else self._cached(key)
        if cached is None:
            cached = await self.list_project_features(project)
            self._search_cache[key] = (time.monotonic(), cached)
        return cached

    async def list_project_features(self, project: str) -> list[Feature]:
        """Every live feature of a project in one read (not rate-limited on real Unleash)."""
        path = f"/api/admin/projects/{_seg(project)}/features"
        answer = await self._read("GET", path, _adapter(FeatureList))
        return answer.features

    async def get_feature(self, project: str, feature: str) -> Feature:
        path = f"/api/admin/projects/{_seg(project)}/features/{_seg(feature)}"
        return await self._read("GET", path, _FEATURE)

    async def list_project_environments(self, project: str) -> list[ProjectEnvironment]:
        path = f"/api/admin/environments/project/{_seg(project)}"
        answer = await self._read("GET", path, _adapter(ProjectEnvironments))
        return answer.environments

    async def list_feature_types(self) -> list[FeatureType]:
        answer = await self._read("GET", "/api/admin/feature-types", _adapter(FeatureTypes))
        return answer.types

    async def list_addons(self) -> AddonList:
        return await self._read("GET", "/api/admin/addons", _ADDONS)

    async def list_change_requests(self, project: str) -> list[ChangeRequest]:
        path = f"/api/admin/projects/{_seg(project)}/change-requests"
        answer = await self._enterprise(
            "Change requests", lambda: self._read("GET", path, _adapter(ChangeRequestList))
        )
        return list(answer)

    async def get_change_request(self, project: str, change_request_id: int | str) -> ChangeRequest:
        path = f"/api/admin/projects/{_seg(project)}/change-requests/{_seg(change_request_id)}"
        return await self._enterprise(
            "Change requests", lambda: self._read("GET", path, _CHANGE_REQUEST)
        )

    async def list_roles(self) -> list[Role]:
        answer = await self._enterprise(
            "Roles", lambda: self._read("GET", "/api/admin/roles", _adapter(RolesAnswer))
        )
        return answer.roles

    async def list_groups(self) -> list[Group]:
        answer = await self._enterprise(
            "Groups", lambda: self._read("GET", "/api/admin/groups", _adapter(GroupsAnswer))
        )
        return answer.groups

    async def get_project_access(self, project: str) -> ProjectAccess:
        path = f"/api/admin/projects/{_seg(project)}/access"
        return await self._enterprise(
            "Project access", lambda: self._read("GET", path, _PROJECT_ACCESS)
        )


def _is_any_of(values: Sequence[str]) -> str:
    return f"IS:{values[0]}" if len(values) == 1 else f"IS_ANY_OF:{','.join(values)}"
