"""`client.features`: read, search, create and change flags (the contract's operations 1 and 5,
the per-environment switch), archive and revive one; a project's archived flags are
`client.archived` (`archived_flags`, which says how Unleash archives).

Real Unleash allows 15 feature searches a minute per client: identical searches are cached for
FEATURE_SEARCH_CACHE_S (any write empties the cache), and a search the budget cannot pay for is
answered from the project's feature list when it can (see `search_budget`).
"""

from __future__ import annotations

import builtins
import math
import time
from collections.abc import Iterable, Mapping
from typing import Any

from flagtui.api import capabilities, errors, intent, rollout_requests, validation
from flagtui.api.archived_flags import ArchivedFlags
from flagtui.api.core import Core
from flagtui.api.feature_query import SEARCH_PATH, FeatureQuery
from flagtui.api.feature_types import FeatureTypes
from flagtui.api.models import Feature, FeaturePage, PatchOperation
from flagtui.api.search_budget import SearchBudget, page_from_list
from flagtui.api.wire import FeatureList, FeatureTags, adapter, seg

FEATURE_SEARCH_CACHE_S = 30.0
REAL_SEARCH_BUDGET = (14, 60.0)  # real Unleash: 15 a minute per client; one kept in reserve
SANDBOX_SEARCH_BUDGET = (1_000_000, 60.0)  # the sandbox does not ration searches

_FEATURE = adapter(Feature)
_FEATURE_PAGE = adapter(FeaturePage)


class Features:
    def __init__(
        self, core: Core, feature_types: FeatureTypes, search_budget: tuple[int, float] | None
    ) -> None:
        self._core = core
        self._feature_types = feature_types
        self._budget = SearchBudget(*(search_budget or REAL_SEARCH_BUDGET))
        self._sandbox_budget = None if search_budget else SearchBudget(*SANDBOX_SEARCH_BUDGET)
        self.archived = ArchivedFlags(core, self.search)

    # -- reads -----------------------------------------------------------------------------------

    async def list(self, project: str) -> list[Feature]:
        """Every live feature of a project in one read (not rate-limited on real Unleash)."""
        path = f"/api/admin/projects/{seg(project)}/features"
        answer = await self._core.read("GET", path, adapter(FeatureList))
        return answer.features

    async def get(self, project: str, feature: str) -> Feature:
        """The flag in full. Real Unleash (6.10 to 8.2 at least) leaves `tags` out of this
        payload: they are read from the flag's tag list then. Tags left unset (None) when
        that read is refused mean "not known", unlike an empty list."""
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        found = await self._core.read("GET", path, _FEATURE)
        if "tags" in found.model_fields_set:
            return found
        tags_path = f"/api/admin/features/{seg(feature)}/tags"
        try:
            answer = await self._core.read("GET", tags_path, adapter(FeatureTags))
        except (errors.NotFoundError, errors.NoAccessError, errors.UnexpectedResponse):
            return found
        return found.model_copy(update={"tags": answer.tags})

    async def get_or_archived(self, project: str, feature: str) -> Feature:
        """The live flag, or the archived one (its search row: no strategies) when the live read
        is a 404. The 404 stands when the archived flags do not have it either."""
        try:
            return await self.get(project, feature)
        except errors.NotFoundError:
            archived = await self.archived.find(project, feature)
            if archived is None:
                raise
            return archived

    # -- the feature search ----------------------------------------------------------------------

    async def search(self, q: FeatureQuery, *, fresh: bool = False) -> FeaturePage:
        """Server-side search, within the budget: cached, then answered from the project list
        when it can. `fresh` (a reload the user asked for) skips the cache: the answer is the
        server's now, or RateLimited saying when the budget allows the next search."""
        q = q.normalized()
        params = self._params(q)
        key = tuple(sorted(params.items()))
        cached = None if fresh else self._cached(key)
        if cached is not None:
            return cached
        budget = self._search_budget()
        wait = budget.wait()
        if wait == 0:
            try:
                budget.spend()
                page = await self._core.read("GET", SEARCH_PATH, _FEATURE_PAGE, params=params)
                self._core.cache[key] = (time.monotonic(), page)
                return page
            except errors.RateLimited as exc:
                budget.exhaust()
                wait = exc.retry_after
                if not q.list_can_answer():
                    raise
        elif not q.list_can_answer():
            raise errors.RateLimited(
                "GET",
                SEARCH_PATH,
                retry_after=math.ceil(wait * 10) / 10,  # rounded up: waiting it is enough
                message="flagtui holds back: real Unleash allows 15 feature searches a minute",
                profile=self._core.profile,
            )
        assert q.project is not None
        return page_from_list(await self._project_list(q.project, fresh=fresh), q)

    def held(self, q: FeatureQuery) -> FeaturePage | None:
        """The page a search would be answered with from the cache, without waiting: None if
        it is not held (or the search is one this server refuses)."""
        try:
            params = self._params(q.normalized())
        except errors.FlagtuiError:
            return None
        page: FeaturePage | None = self._cached(tuple(sorted(params.items())))
        return page

    async def prefetch(self, q: FeatureQuery) -> bool:
        """Read a page the user is likely to open next (the following one) into the search
        cache, only while at least half of the search budget is unspent: it never costs a
        search the user asks for. True if the page is now cached."""
        budget = self._search_budget()
        if budget.spare() * 2 < budget.limit:
            return False
        await self.search(q)
        return True

    def _search_budget(self) -> SearchBudget:
        server = self._core.server
        if self._sandbox_budget is not None and server is not None and server.sandbox:
            return self._sandbox_budget
        return self._budget

    def _params(self, q: FeatureQuery) -> dict[str, Any]:
        if q.archived:
            self._core.require_version(capabilities.ARCHIVED_FLAGS)
        return q.params(self._core.server)

    def _cached(self, key: tuple[Any, ...]) -> Any:
        hit = self._core.cache.get(key)
        if hit and time.monotonic() - hit[0] < FEATURE_SEARCH_CACHE_S:
            return hit[1]
        return None

    async def _project_list(self, project: str, *, fresh: bool) -> builtins.list[Feature]:
        key = ("project-list", project)
        cached = None if fresh else self._cached(key)
        if cached is None:
            cached = await self.list(project)
            self._core.cache[key] = (time.monotonic(), cached)
        return cached

    # -- writes ----------------------------------------------------------------------------------

    async def create(
        self,
        project: str,
        name: str,
        *,
        type: str | None = None,
        description: str | None = None,
        impression_data: bool = False,
        check_name: bool = True,
    ) -> Feature:
        """Create a flag (feature-created), every environment off and without strategies. The
        name is checked by the server's validation route first (taken, by a live or an
        archived flag: ConflictError; `check_name=False` leaves that to the creation, for a
        dry run: the route is a POST), the type against the server's feature types (Unleash's
        default, release, when None). The flag as read just after (its creation answer when
        that read fails: it was created all the same)."""
        validation.flag_name(name)
        plan = rollout_requests.create_feature(
            project, name, type=type, description=description, impression_data=impression_data
        )
        self._core.require_writable(plan.action)
        if type is not None:
            intent.check_types([type], await self._feature_types.list())
        if check_name:
            await self.check_name(project, name)
        created = await self._core.write(plan.action, plan.method, plan.path, _FEATURE, plan.body)
        assert created is not None
        try:
            return await self.get(project, name)
        except errors.FlagtuiError:
            return created

    async def check_name(self, project: str, name: str) -> None:
        """The name as the server's validation route judges it for a new flag in `project`
        (taken by a live or an archived flag: ConflictError); changes nothing."""
        validation.flag_name(name)
        body = {"name": name, "projectId": project}
        await self._core.check("POST", "/api/admin/features/validate", json=body)

    async def patch(
        self, project: str, feature: str, ops: Iterable[PatchOperation | Mapping[str, Any]]
    ) -> Feature:
        """Operation 1, on the four fields Unleash's PATCH honours (`intent`); a new type must be
        one of the server's feature types (read first). Real Unleash answers a short row; then
        the full feature is read (from the archived flags for an archived one: the live read is
        a 404). The patch was applied once the server said so: if that read fails, its short
        answer is returned."""
        checked = validation.patch_operations(ops)
        intent.check_patch_paths(checked)
        self._core.require_writable("patch feature")
        if named := intent.types_named(checked):
            intent.check_types(named, await self._feature_types.list())
        body = [op.to_wire() for op in checked]
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        updated = await self._core.write("patch feature", "PATCH", path, _FEATURE, body)
        assert updated is not None
        if updated.is_full:
            return updated
        try:
            if updated.is_archived:
                return await self.archived.find(project, feature) or updated
            return await self.get(project, feature)
        except errors.FlagtuiError:
            return updated

    async def uncomplete(self, project: str, feature: str) -> None:
        """Operation 5, for a flag read just before: real Unleash answers 200 for a flag or
        project that does not exist. An unknown flag is a NotFoundError; one whose stage is known
        and not `completed` is NothingToSend (a server without lifecycle stages decides)."""
        self._core.require_writable("mark uncompleted")
        current = await self.get_or_archived(project, feature)
        stage = "archived" if current.is_archived else current.lifecycle and current.lifecycle.stage
        if stage and stage != "completed":
            raise errors.NothingToSend(feature, f"not completed (stage {stage})", "uncomplete")
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}/lifecycle/uncomplete"
        await self._core.versioned(
            capabilities.LIFECYCLE, lambda: self._core.write("mark uncompleted", "POST", path)
        )

    async def set_environment_enabled(
        self, project: str, feature: str, environment: str, enabled: bool
    ) -> None:
        """Switch `feature` on (`enabled`) or off in one environment, with real Unleash's route
        (`environments` says what it does). Returns nothing: read the feature again to see its
        state (real Unleash answers no body)."""
        env = validation.name("environment", environment)
        verb = "on" if enabled else "off"
        path = (
            f"/api/admin/projects/{seg(project)}/features/"
            f"{seg(validation.name('feature', feature))}/environments/{seg(env)}/{verb}"
        )
        action = "enable feature" if enabled else "disable feature"
        await self._core.write(action, "POST", path)

    async def archive(self, project: str, feature: str) -> Feature:
        """Archive one live flag with Unleash's archive (`archived_flags` says how); the flag as
        it was just before (which environments it was on in). Already archived: NothingToSend;
        unknown: NotFoundError."""
        self._core.require_writable("archive feature")
        current = await self.get_or_archived(project, feature)
        if current.is_archived:
            raise errors.NothingToSend(feature, "already archived", "archive")
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        await self._core.write("archive feature", "DELETE", path)
        return current

    async def revive(self, project: str, feature: str) -> Feature:
        """Revive one archived flag: every environment comes back off. Its archived row as it
        was before (the environments it was on in). Live: NothingToSend; unknown: NotFound."""
        self._core.require_writable("revive feature")
        current = await self.get_or_archived(project, feature)
        if not current.is_archived:
            raise errors.NothingToSend(feature, "not archived", "revive")
        await self.archived.revive_many(project, [feature])
        return current
