"""AdminClient: one per profile; every contract operation and every browse read is one method.

The contract's operations are here; the browse reads (`browse`), the feature search
(`feature_search`), the event search (`event_search`), archived flags (`archive`), addons
(`addons`) and the per-environment writes (`environments`) are mixed in from their modules.

Read-only profiles are enforced here, once, in `_write`, before any request is built.
Capabilities (edition, event search route) come from ui-config on `connect()`. Other reads need
not wait for it: the app builds its first screen and sends that screen's reads while connecting.
A request that fails while the connection fails too raises `NotConnected` (one error to show,
the connection's), see `_read`. Every request's outcome goes to `health` (is the server
answering?), which the UI watches.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import httpx
from pydantic import TypeAdapter

from flagtui.api import capabilities, errors, intent, validation
from flagtui.api.addons import AddonOperations
from flagtui.api.archive import ArchiveOperations
from flagtui.api.browse import BrowseReads
from flagtui.api.capabilities import event_search_route, server_info
from flagtui.api.environments import EnvironmentOperations
from flagtui.api.event_search import EventSearchOperations
from flagtui.api.feature_search import REAL_SEARCH_BUDGET, FeatureSearchOperations
from flagtui.api.health import Health
from flagtui.api.models import (
    Feature,
    FeatureType,
    IntegrationEvent,
    PatchOperation,
    ServerInfo,
    User,
    UserList,
)
from flagtui.api.search_budget import SearchBudget
from flagtui.api.transport import DEFAULT_RETRY_DELAYS, Transport
from flagtui.api.wire import IntegrationEvents, RawObject, UserSearchAnswer, adapter, seg

T = TypeVar("T")

_FEATURE = adapter(Feature)
_FEATURE_TYPE = adapter(FeatureType)
_RAW = adapter(RawObject)


class AdminClient(
    BrowseReads,  # projects, features, environments, types, addons, Enterprise lists
    FeatureSearchOperations,  # feature search within real Unleash's budget, cached
    EventSearchOperations,  # operation 9 on either event search route
    ArchiveOperations,  # archived flags
    AddonOperations,  # switching an integration on or off
    EnvironmentOperations,  # a flag on or off per environment; linking an environment
):
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

    async def probe(self) -> None:
        """Ask the server whether it answers, in one light request (Unleash's `/health`, which
        needs no permission), recording the outcome in `health` and raising nothing: how an idle
        UI notices a server that is back."""
        with contextlib.suppress(errors.ApiError):
            await self._observed(self._http.read("GET", "/health", _RAW))

    def use_token(self, token: str) -> None:
        """Send `token` from the next request on: a long-running command (`collect`) whose
        token was refused reads the profile's token source again, which may have rotated."""
        self._http.use_token(token)

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
            # a route missing ("... is not available") or its flag off ("Feature lifecycle is
            # disabled.", 6.1's deliveries "This feature is not enabled")
            said = exc.message
            if "not available" in said or said.endswith(("is disabled.", "is not enabled")):
                needs = capabilities.flag_off_needs(self.server, area)
                raise errors.NotSupported(area, self._server_label(), needs=needs) from None
            raise

    # -- writes: the one read-only check ----------------------------------------------------------

    def _require_writable(self, action: str) -> None:
        """Before a write, and before the reads that check it: nothing leaves a read-only one."""
        if self.read_only:
            raise errors.ReadOnlyProfile(self.profile, action)

    async def _write(
        self,
        action: str,
        method: str,
        path: str,
        adapter: TypeAdapter[T] | None = None,
        json: Any = None,
    ) -> T | None:
        self._require_writable(action)
        self._search_cache.clear()
        request = self._http.write(method, path, adapter, json=json)
        return await self._unless_disconnected(request)

    # -- the nine operations of the contract -----------------------------------------------------

    async def patch_feature(
        self, project: str, feature: str, ops: Iterable[PatchOperation | Mapping[str, Any]]
    ) -> Feature:
        """Operation 1, on the four fields Unleash's PATCH honours (`intent`); a new type must be
        one of the server's feature types (read first). Real Unleash answers a short row; then
        the full feature is read (from the archived flags for an archived one: the live read is
        a 404). The patch was applied once the server said so: if that read fails, its short
        answer is returned."""
        checked = validation.patch_operations(ops)
        intent.check_patch_paths(checked)
        self._require_writable("patch feature")
        if named := intent.types_named(checked):
            intent.check_types(named, await self.list_feature_types())
        body = [op.to_wire() for op in checked]
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
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
        path = f"/api/admin/addons/{seg(addon_id)}/events"
        answer = await self._versioned(
            capabilities.INTEGRATION_DELIVERIES,
            lambda: self._read("GET", path, adapter(IntegrationEvents), params=params),
        )
        return answer.integration_events

    async def remove_project_environment(self, project: str, environment: str) -> None:
        """Operation 3."""
        path = f"/api/admin/projects/{seg(project)}/environments/{seg(environment)}"
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
        path = f"/api/admin/projects/{seg(project)}/access"
        await self._enterprise(
            "Project access", lambda: self._write("grant access", "POST", path, json=body)
        )

    async def uncomplete_feature(self, project: str, feature: str) -> None:
        """Operation 5, for a flag read just before: real Unleash answers 200 for a flag or
        project that does not exist. An unknown flag is a NotFoundError; one whose stage is known
        and not `completed` is NothingToSend (a server without lifecycle stages decides)."""
        self._require_writable("mark uncompleted")
        current = await self.get_feature_or_archived(project, feature)
        stage = "archived" if current.is_archived else current.lifecycle and current.lifecycle.stage
        if stage and stage != "completed":
            raise errors.NothingToSend(feature, f"not completed (stage {stage})", "uncomplete")
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}/lifecycle/uncomplete"
        await self._versioned(
            capabilities.LIFECYCLE, lambda: self._write("mark uncompleted", "POST", path)
        )

    async def update_feature_type_lifetime(
        self, type_id: str, lifetime_days: int | None
    ) -> FeatureType:
        """Operation 6. None (or 0) means flags of this type never become potentially stale."""
        body = {"lifetimeDays": validation.lifetime_days(lifetime_days)}
        path = f"/api/admin/feature-types/{seg(type_id)}/lifetime"
        area = capabilities.FEATURE_TYPE_LIFETIME
        try:
            updated = await self._versioned(
                area, lambda: self._write("update lifetime", "PUT", path, _FEATURE_TYPE, body)
            )
        except errors.ConflictError:
            if not capabilities.behind_a_flag(self.server, area):
                raise  # only 5.3 and 5.4 with the flag off answer 409 (with an empty body)
            needs = capabilities.flag_off_needs(self.server, area)
            raise errors.NotSupported(area, self._server_label(), needs=needs) from None
        assert updated is not None
        return updated

    async def search_users(self, q: str) -> UserList:
        """Operation 7. Accepts the contract's {users, rootRoles} and real Unleash's bare array."""
        params = {"q": validation.user_query(q)}
        answer: UserList | list[User] = await self._read(
            "GET", "/api/admin/user-admin/search", adapter(UserSearchAnswer), params=params
        )
        return answer if isinstance(answer, UserList) else UserList(users=answer)

    async def delete_change_request(
        self, project: str, change_request_id: int | float | str
    ) -> None:
        """Operation 8 (Enterprise)."""
        path = f"/api/admin/projects/{seg(project)}/change-requests/{seg(change_request_id)}"
        await self._enterprise(
            "Change requests", lambda: self._write("delete change request", "DELETE", path)
        )
