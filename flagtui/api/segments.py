"""`client.segments`: segments listed, read, created, replaced and deleted, and the strategies
that use one, with real Unleash's routes (6.10.1, 7.5.1 and 8.2.0 alike):

- `POST /api/admin/segments` (201, the segment; segment-created), `PUT /api/admin/segments/:id`
  (204, no body; segment-updated, nothing recorded when nothing changes), `DELETE …/:id` (204;
  segment-deleted), `GET …/:id`, `GET …/:id/strategies` (`{strategies: [{id, projectId,
  featureName, strategyName, environment}]}`; 6.10.1 answers an unknown id with an empty list).
- A body carries `name`, `description`, `project` and `constraints`, all four: PUT replaces.

Checked before anything is sent (`plan_*`): a name, constraints by the strategies' rules
(`constraint_rules`, on the server's catalog), at most 1,000 values across the constraints and
300 segments (real Unleash's limits), a project of the server's (real Unleash answers an
unknown one with a 500). Real Unleash refuses to delete a segment a strategy uses (409, no
body): `plan_delete` says so first, naming the strategies (`SegmentInUse`). A read-only profile
is refused before any request.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from flagtui.api import constraint_rules, errors
from flagtui.api.core import Core
from flagtui.api.edits import Edit, EditConflict, changed_fields
from flagtui.api.models import Constraint, Segment
from flagtui.api.records import Record
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.rollout_requests import PlannedWrite
from flagtui.api.wire import SegmentsAnswer, adapter
from flagtui.contract import SEGMENT_VALUES_MAX, SEGMENTS_MAX

PATH = "/api/admin/segments"
_SEGMENT = adapter(Segment)


class SegmentStrategy(Record):
    """A strategy that uses a segment (`GET /api/admin/segments/:id/strategies`)."""

    id: str
    project_id: str
    feature_name: str
    strategy_name: str | None = None
    environment: str


class SegmentStrategies(Record):
    strategies: list[SegmentStrategy] = Field(default_factory=list)


_USED = adapter(SegmentStrategies)


class SegmentInUse(errors.FlagtuiError):
    """A segment strategies use, asked to be deleted: real Unleash refuses it (409); nothing
    was sent."""

    def __init__(self, segment: Segment, used: Sequence[SegmentStrategy]) -> None:
        self.segment, self.used = segment, list(used)
        named = "; ".join(used_text(s) for s in used)
        super().__init__(
            f"segment {segment.name!r} is used by {len(used)} strategies ({named}): Unleash"
            " refuses to delete it; remove it from those strategies first. Nothing was sent."
        )


def used_text(s: SegmentStrategy) -> str:
    return f"{s.feature_name}/{s.environment} {s.strategy_name or 'strategy'} {s.id}"


@dataclass(frozen=True)
class SegmentSpec:
    """What a segment is to be: all four fields (a PUT replaces them all)."""

    name: str
    description: str | None = None
    project: str | None = None
    constraints: Sequence[Constraint] = ()


def body_of(segment: Segment | SegmentSpec) -> dict[str, Any]:
    """As the create and update routes take it (and as `opened_on` keeps it)."""
    return {
        "name": segment.name,
        "description": segment.description,
        "project": segment.project,
        "constraints": [
            c.model_dump(mode="json", by_alias=True, exclude_none=True)
            for c in segment.constraints or []
        ],
    }


def checked(
    spec: SegmentSpec, catalog: RolloutCatalog, projects: Sequence[str] | None
) -> SegmentSpec:
    """`spec` as it will be sent, every field checked (InvalidArgument names it and its limit).
    `projects`: the server's (None: not checked)."""
    if not spec.name.strip():
        raise errors.InvalidArgument("name", "a segment needs a name (not blank)")
    if spec.name != spec.name.strip():
        raise errors.InvalidArgument("name", "no spaces at either end")
    if spec.project is not None and projects is not None and spec.project not in projects:
        known = ", ".join(projects) or "none"
        said = f"no project {spec.project!r} on this server (its projects: {known})"
        raise errors.InvalidArgument("project", said)
    constraints = constraint_rules.constraints(spec.constraints, catalog)
    values = sum(len(c.values or []) for c in constraints)
    if values > SEGMENT_VALUES_MAX:
        said = f"at most {SEGMENT_VALUES_MAX:,} values across a segment's constraints ({values:,})"
        raise errors.InvalidArgument("constraints", said)
    description = spec.description if spec.description else None
    return SegmentSpec(spec.name, description, spec.project, constraints)


def _as_sent(segment: Segment, catalog: RolloutCatalog) -> dict[str, Any] | None:
    """The segment as it stands, as this client would send it (its constraints' false flags
    dropped): an edit to that is no change. None where today's rules refuse what it holds."""
    spec = SegmentSpec(segment.name, segment.description, segment.project, segment.constraints)
    try:
        return body_of(checked(spec, catalog, None))
    except errors.InvalidArgument:
        return None


class Segments:
    def __init__(self, core: Core) -> None:
        self._core = core

    # -- reads -----------------------------------------------------------------------------------

    async def list(self) -> builtins.list[Segment]:
        answer = await self._core.read("GET", PATH, adapter(SegmentsAnswer))
        return answer.segments

    async def get(self, segment_id: int) -> Segment:
        return await self._core.read("GET", f"{PATH}/{segment_id}", _SEGMENT)

    async def find(self, id_or_name: str) -> Segment:
        """A segment by name, or by id (a name all digits is tried as a name first); none:
        NotFoundError."""
        found = RolloutCatalog(segments=await self.list()).segment(id_or_name)
        if found is None:
            said = f"No segment named {id_or_name!r} or with that id on this server"
            raise errors.NotFoundError("GET", PATH, message=said)
        return found

    async def used_by(self, segment_id: int) -> builtins.list[SegmentStrategy]:
        """The strategies that use the segment, by project, flag and environment."""
        answer = await self._core.read("GET", f"{PATH}/{segment_id}/strategies", _USED)
        return sorted(
            answer.strategies, key=lambda s: (s.project_id, s.feature_name, s.environment)
        )

    # -- writes ----------------------------------------------------------------------------------

    def plan_create(
        self,
        spec: SegmentSpec,
        catalog: RolloutCatalog,
        projects: Sequence[str] | None = None,
    ) -> Edit:
        """The checked POST; `catalog.segments` are the server's (names and the limit)."""
        sending = checked(spec, catalog, projects)
        if any(s.name == sending.name for s in catalog.segments):
            raise errors.InvalidArgument("name", f"a segment {sending.name!r} exists already")
        if len(catalog.segments) >= SEGMENTS_MAX:
            said = f"at most {SEGMENTS_MAX} segments on a server (it has {len(catalog.segments)})"
            raise errors.InvalidArgument("segments", said)
        plan = PlannedWrite("create segment", "POST", PATH, body_of(sending))
        return Edit(plan, None, sending)

    def plan_edit(
        self,
        opened_on: Segment,
        spec: SegmentSpec,
        catalog: RolloutCatalog,
        projects: Sequence[str] | None = None,
    ) -> Edit:
        """The checked PUT replacing `opened_on` (the segment as shown) with `spec`; already
        so: NothingToSend."""
        sending = checked(spec, catalog, projects)
        if any(s.name == sending.name and s.id != opened_on.id for s in catalog.segments):
            raise errors.InvalidArgument("name", f"another segment is named {sending.name!r}")
        plan = PlannedWrite("edit segment", "PUT", f"{PATH}/{opened_on.id}", body_of(sending))
        shown = body_of(opened_on)
        if plan.body in (shown, _as_sent(opened_on, catalog)):
            raise errors.NothingToSend(f"segment {opened_on.name}", "already so", plan.action)
        return Edit(plan, shown, sending)

    def plan_delete(self, segment: Segment, used: Sequence[SegmentStrategy]) -> PlannedWrite:
        """The DELETE; a segment strategies use: SegmentInUse (Unleash would refuse it)."""
        if used:
            raise SegmentInUse(segment, used)
        return PlannedWrite("delete segment", "DELETE", f"{PATH}/{segment.id}")

    async def create(self, edit: Edit) -> Segment:
        plan = edit.plan
        answer = await self._core.write(plan.action, plan.method, plan.path, _SEGMENT, plan.body)
        assert answer is not None
        return answer

    async def send_edit(self, edit: Edit, *, anyway: bool = False) -> Segment:
        """Send a planned edit as shown; the segment as stored. Read again first: changed since
        `edit.opened_on` is EditConflict (nothing sent) unless `anyway`."""
        plan = edit.plan
        self._core.require_writable(plan.action)
        now = await self._core.read("GET", plan.path, _SEGMENT)
        if edit.opened_on is not None and not anyway:
            changed = changed_fields(edit.opened_on, body_of(now))
            if changed:
                raise EditConflict(f"segment {now.name}", plan.action, changed, now)
        if body_of(now) == plan.body:
            raise errors.NothingToSend(f"segment {now.name}", "already as sent", plan.action)
        await self._core.write(plan.action, plan.method, plan.path, None, plan.body)
        return await self._core.read("GET", plan.path, _SEGMENT)

    async def delete(self, segment: Segment) -> None:
        """Delete a segment no strategy uses (read just before: SegmentInUse otherwise)."""
        self._core.require_writable("delete segment")
        plan = self.plan_delete(segment, await self.used_by(segment.id))
        await self._core.write(plan.action, plan.method, plan.path)
