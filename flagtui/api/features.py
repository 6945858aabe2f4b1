"""`client.features`: read, search, create and change flags (the contract's operations 1 and 5,
the per-environment switch), archive and revive one; a project's archived flags are
`client.archived` (`archived_flags`, which says how Unleash archives).

Unleash 8.2 limits the feature search per client IP and says what is left on every answer:
identical searches are cached for FEATURE_SEARCH_CACHE_S (any write empties the cache), and a
search the server would refuse is answered from the project's feature list when it can (see
`search_budget`).
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
from flagtui.api.edits import Edit, EditConflict, changed_fields
from flagtui.api.events import Events
from flagtui.api.feature_query import SEARCH_PATH, FeatureQuery
from flagtui.api.feature_types import FeatureTypes
from flagtui.api.models import Feature, FeaturePage, PatchOperation
from flagtui.api.search_budget import SearchBudget, page_from_list
from flagtui.api.wire import FeatureList, FeatureNames, FeatureTags, adapter, seg

FEATURE_SEARCH_CACHE_S = 30.0

_FEATURE = adapter(Feature)
_FEATURE_PAGE = adapter(FeaturePage)


class Features:
    def __init__(self, core: Core, feature_types: FeatureTypes, events: Events) -> None:
        self._core = core
        self._feature_types = feature_types
        self._events = events
        self.budget = SearchBudget()
        """What the server said is left of its search limit."""
        self.archived = ArchivedFlags(core, self.search)

    # -- reads -----------------------------------------------------------------------------------

    async def list(self, project: str) -> list[Feature]:
        """Every live feature of a project in one read (not rate-limited on real Unleash)."""
        path = f"/api/admin/projects/{seg(project)}/features"
        answer = await self._core.read("GET", path, adapter(FeatureList))
        return answer.features

    async def names(self, project: str) -> builtins.list[str]:
        """The names of a project's live flags, sorted (one read, as `list`; names alone
        kept)."""
        path = f"/api/admin/projects/{seg(project)}/features"
        answer = await self._core.read("GET", path, adapter(FeatureNames))
        return sorted(f.name for f in answer.features)

    async def get(self, project: str, feature: str, *, tags: bool = True) -> Feature:
        """The flag in full. Real Unleash (6.10 to 8.2 at least) leaves `tags` out of this
        payload: they are read from the flag's tag list then (not with `tags` False). Tags
        left unset (None) when that read is refused mean "not known", unlike an empty list."""
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        found = await self._core.read("GET", path, _FEATURE)
        if "tags" in found.model_fields_set or not tags:
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
        """Server-side search, within what the server says is left: cached, then answered from
        the project list when it can. `fresh` (a reload the user asked for) skips the cache:
        the answer is the server's now, or RateLimited saying when it allows the next search."""
        q = q.normalized()
        params = self._params(q)
        key = tuple(sorted(params.items()))
        cached = None if fresh else self._cached(key)
        if cached is not None:
            return cached
        budget = self.budget
        wait = budget.wait()
        if wait == 0:
            try:
                page = await self._core.read(
                    "GET", SEARCH_PATH, _FEATURE_PAGE, params=params, heard=budget.heard
                )
                self._core.cache[key] = (time.monotonic(), page)
                return page
            except errors.RateLimited as exc:
                budget.exhaust(exc.retry_after)
                if not q.list_can_answer():
                    raise
        elif not q.list_can_answer():
            allowed = f"{budget.limit} " if budget.limit is not None else ""
            raise errors.RateLimited(
                "GET",
                SEARCH_PATH,
                retry_after=math.ceil(wait * 10) / 10,  # rounded up: waiting it is enough
                message=f"flagtui holds back: the server allows {allowed}feature searches a"
                " minute per IP, and says none is left",
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
        cache, only while at least half of the server's search limit is left (always where it
        has none): it never costs a search the user asks for. True if the page is now cached."""
        if not self.budget.half_left():
            return False
        await self.search(q)
        return True

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

    async def plan_patch(
        self,
        project: str,
        feature: str,
        ops: Iterable[PatchOperation | Mapping[str, Any]],
        opened_on: Feature | None = None,
    ) -> Edit:
        """The checked PATCH (operation 1), its body as it is sent: on the four fields Unleash's
        PATCH honours (`intent`); a new type must be one of the server's (read here).
        `opened_on`: the flag as the form showed it, compared before sending."""
        checked = validation.patch_operations(ops)
        intent.check_patch_paths(checked)
        self._core.require_writable("patch feature")
        if named := intent.types_named(checked):
            intent.check_types(named, await self._feature_types.list())
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        plan = rollout_requests.PlannedWrite(
            "patch feature", "PATCH", path, [op.to_wire() for op in checked]
        )
        return Edit(plan, None if opened_on is None else patched_fields(opened_on), checked)

    async def send_patch(
        self, edit: Edit, project: str, feature: str, *, anyway: bool = False
    ) -> Feature:
        """Send a planned PATCH as shown. Made from a flag (`edit.opened_on`): read again first,
        and a patched field another admin changed since is EditConflict (nothing sent) unless
        `anyway`. Real Unleash answers a short row; then the full feature is read (from the
        archived flags for an archived one). The patch was applied once the server said so:
        if that read fails, its short answer is returned."""
        plan = edit.plan
        self._core.require_writable(plan.action)
        if edit.opened_on is not None and not anyway:
            now = await self.get_or_archived(project, feature)
            if changed := changed_fields(edit.opened_on, patched_fields(now)):
                try:
                    recorded = (await self._events.search(feature=feature, limit=5)).events
                except errors.FlagtuiError:
                    recorded = []
                raise EditConflict(feature, plan.action, changed, now, recorded)
        updated = await self._core.write(plan.action, plan.method, plan.path, _FEATURE, plan.body)
        assert updated is not None
        if updated.is_full:
            return updated
        try:
            if updated.is_archived:
                return await self.archived.find(project, feature) or updated
            return await self.get(project, feature)
        except errors.FlagtuiError:
            return updated

    async def patch(
        self, project: str, feature: str, ops: Iterable[PatchOperation | Mapping[str, Any]]
    ) -> Feature:
        """A JSON Patch of the fields it names, checked and sent (`plan_patch`, `send_patch`)."""
        return await self.send_patch(await self.plan_patch(project, feature, ops), project, feature)

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


def patched_fields(flag: Feature) -> dict[str, Any]:
    """What a PATCH of a flag may change, as an edit compares it (`plan_patch`)."""
    return {
        "description": flag.description or "",
        "type": flag.type,
        "stale": bool(flag.stale),
        "impressionData": bool(flag.impression_data),
    }
