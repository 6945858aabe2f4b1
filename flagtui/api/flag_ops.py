"""`client.flag_ops`: four operations on one flag that the web UI offers and the contract does
not: clone it, delete an archived one for good, mark it completed, copy its strategies to
another environment. Each is checked against the flag as read just before, and planned
(`PlannedWrite`: what `--dry-run` shows and the TUI's question lists) before it is sent.

What real Unleash does (6.10.1, 7.5.1 and 8.2.0 checked):
- Clone: POST /projects/:p/features/:f/clone `{name, replaceGroupId}` (201, the short row;
  records feature-created, then feature-strategy-add per strategy; the environments start off,
  the strategies and environment variants are copied; a gradual rollout's groupId becomes the
  new name unless `replaceGroupId` is false: omitted, it is true). The name is checked as
  `feature create` checks it (409 NameExistsError when taken, 400 when not URL-friendly).
- Delete: DELETE /archive/:f for one flag, POST /projects/:p/delete `{features}` for several
  (both 200, no body; feature-deleted per flag, preData its archived row). Both delete only
  archived flags, but 6.10.1 and 7.5.1 record feature-deleted for a live flag they leave in
  place, and 8.2.0 answers 200 for an unknown one: so a live flag is refused here, before
  anything is sent, and an unknown one is a 404 read first.
- Complete: POST /projects/:p/features/:f/lifecycle/complete `{status, statusValue?}` (200, no
  body; feature-completed `{status, statusValue?, kept}`). Unleash answers 200 for an unknown
  flag, and completing a completed flag records another event but keeps its first status: the
  flag is read first (completed already: NothingToSend, uncomplete it to change how).
- Copy strategies: as the web UI's "Copy to environment", one POST of each strategy (without
  its id) to the target environment's strategies (feature-strategy-add each), after those
  there; nothing of the target's is replaced.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flagtui.api import capabilities, errors, rollout_requests, rollout_rules, validation
from flagtui.api.core import Core
from flagtui.api.edits import Edit
from flagtui.api.features import Features
from flagtui.api.models import Feature, Strategy
from flagtui.api.rollout_requests import PlannedWrite
from flagtui.api.rollouts import Rollouts
from flagtui.api.wire import adapter, seg

COMPLETED_STATUSES = ("kept", "discarded")
_FEATURE = adapter(Feature)


@dataclass(frozen=True)
class StrategyCopy:
    """The strategies to copy, as read, and the requests that copy them."""

    flag: Feature
    source: str
    target: str
    strategies: list[Strategy]
    edits: list[Edit]

    @property
    def plans(self) -> list[PlannedWrite]:
        return [e.plan for e in self.edits]


def variant_names(flag: Feature) -> list[str]:
    """Every variant name the flag's strategies and environments give, in order, once each:
    what "kept with a variant" may name (the web UI offers the same list)."""
    names: dict[str, None] = {}
    for env in flag.environments or []:
        for s in env.strategies or []:
            names.update((v.name, None) for v in s.variants or [])
        names.update((v.name, None) for v in env.variants or [])
    names.update((v.name, None) for v in flag.variants or [])
    return list(names)


def feature_path(project: str, feature: str) -> str:
    return f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"


class FlagOps:
    def __init__(self, core: Core, features: Features, rollouts: Rollouts) -> None:
        self._core = core
        self._features = features
        self._rollouts = rollouts

    # -- clone -----------------------------------------------------------------------------------

    def plan_clone(
        self, project: str, feature: str, new_name: str, *, replace_group_id: bool
    ) -> PlannedWrite:
        validation.flag_name(new_name, field="NEW_NAME")
        body = {"name": new_name, "replaceGroupId": replace_group_id}
        return PlannedWrite(
            "clone feature", "POST", f"{feature_path(project, feature)}/clone", body
        )

    async def clone(
        self,
        project: str,
        feature: str,
        new_name: str,
        *,
        replace_group_id: bool = False,
        check_name: bool = True,
    ) -> Feature:
        """Clone a live flag under `new_name`; the clone as read just after (its creation
        answer when that read fails). `replaceGroupId` is always sent (Unleash's default, when
        omitted, is true): kept, a gradual rollout of the clone picks the same users."""
        plan = self.plan_clone(project, feature, new_name, replace_group_id=replace_group_id)
        self._core.require_writable(plan.action)
        source = await self._features.get_or_archived(project, feature)
        if source.is_archived:
            raise errors.ArchivedFlag(feature, plan.action)
        if check_name:
            await self._features.check_name(project, new_name)
        created = await self._core.write(plan.action, plan.method, plan.path, _FEATURE, plan.body)
        assert created is not None
        try:
            return await self._features.get(project, new_name)
        except errors.FlagtuiError:
            return created

    # -- delete for good -------------------------------------------------------------------------

    def plan_delete(self, project: str, names: Sequence[str]) -> PlannedWrite:
        if len(names) == 1:
            path = f"/api/admin/archive/{seg(names[0])}"
            return PlannedWrite("delete feature", "DELETE", path)
        path = f"/api/admin/projects/{seg(project)}/delete"
        return PlannedWrite("delete features", "POST", path, {"features": list(names)})

    async def archived_rows(self, project: str, features: Iterable[str]) -> list[Feature]:
        """Each named flag's archived row, read first: a live one is LiveFlag, an unknown one
        a NotFoundError (nothing sent either way)."""
        names = list(dict.fromkeys(validation.name("NAME", n) for n in features))
        if not names:
            raise errors.InvalidArgument("NAME", "at least one archived flag's name")
        self._core.require_writable("delete feature")
        rows = []
        for name in names:
            row = await self._features.get_or_archived(project, name)
            if not row.is_archived:
                raise errors.LiveFlag(name, project)
            rows.append(row)
        return rows

    async def delete(self, project: str, rows: Sequence[Feature]) -> None:
        """Delete archived flags for good (`archived_rows` read them): one request."""
        plan = self.plan_delete(project, [r.name for r in rows])
        await self._core.write(plan.action, plan.method, plan.path, json=plan.body)

    # -- mark completed --------------------------------------------------------------------------

    def plan_complete(
        self, project: str, feature: str, status: str, variant: str | None
    ) -> PlannedWrite:
        if status not in COMPLETED_STATUSES:
            raise errors.InvalidArgument("--status", "kept or discarded")
        if variant is not None and status != "kept":
            raise errors.InvalidArgument("--variant", "only with --status kept")
        body: dict[str, str] = {"status": status}
        if variant is not None:
            body["statusValue"] = validation.flag_name(variant, field="--variant")
        path = f"{feature_path(project, feature)}/lifecycle/complete"
        return PlannedWrite("mark completed", "POST", path, body)

    async def complete(
        self, project: str, feature: str, *, status: str = "kept", variant: str | None = None
    ) -> Feature:
        """Mark a live flag completed (its lifecycle's last stage before archive); the flag as
        it was just before. Completed already or archived: NothingToSend. A variant kept must
        be one of the flag's (`variant_names`)."""
        plan = self.plan_complete(project, feature, status, variant)
        self._core.require_writable(plan.action)
        await self._core.connecting_done()
        self._core.require_version(capabilities.LIFECYCLE)
        current = await self._features.get_or_archived(project, feature)
        if current.is_archived:
            raise errors.NothingToSend(feature, "archived", "mark completed")
        stage = current.lifecycle.stage if current.lifecycle else None
        if stage == "completed":
            said = "completed already (uncomplete it first to mark it completed otherwise)"
            raise errors.NothingToSend(feature, said, "mark completed")
        if variant is not None and variant not in (names := variant_names(current)):
            listed = ", ".join(names) if names else "none: its strategies name no variant"
            raise errors.InvalidArgument("--variant", f"one of {feature}'s variants ({listed})")
        await self._core.versioned(
            capabilities.LIFECYCLE,
            lambda: self._core.write(plan.action, plan.method, plan.path, json=plan.body),
        )
        return current

    # -- copy strategies to another environment --------------------------------------------------

    async def plan_copy(
        self,
        project: str,
        feature: str,
        source: str,
        target: str,
        strategy: str | None = None,
    ) -> StrategyCopy:
        """The strategies of `source` (or the one whose id is `strategy`, or starts with it)
        as requests adding them to `target`, checked against the server's catalog."""
        validation.name("--from-env", source)
        validation.name("--to-env", target)
        if source == target:
            raise errors.InvalidArgument("--to-env", f"another environment than {source}")
        self._core.require_writable("add strategy")
        flag = await self._features.get(project, feature)
        envs = {e.name for e in flag.environments or []}
        for option, env in (("--from-env", source), ("--to-env", target)):
            if env not in envs:
                listed = ", ".join(sorted(envs)) or "none"
                raise errors.InvalidArgument(option, f"one of {feature}'s environments ({listed})")
        strategies = await self._rollouts.list(project, feature, source)
        if strategy is not None:
            strategies = [_one(strategies, strategy, f"{feature}/{source}")]
        if not strategies:
            raise errors.NothingToSend(feature, f"without strategies in {source}", "copy")
        catalog = await self._rollouts.catalog()
        edits = []
        for s in strategies:
            # checked as an existing strategy: a type the server deprecated since is copied too
            unsaved = s.model_copy(update={"id": None})
            checked = rollout_rules.strategy(unsaved, catalog, feature=feature, existing=unsaved)
            plan = rollout_requests.add_strategy(project, feature, target, checked)
            edits.append(Edit(plan, None, checked))
        return StrategyCopy(flag, source, target, strategies, edits)

    async def copy(self, project: str, copy: StrategyCopy) -> list[Strategy]:
        """Send the planned copies in order; the strategies as stored. One refused stops the
        rest: `PartlyCopied` says which were added."""
        stored: list[Strategy] = []
        for edit in copy.edits:
            try:
                stored.append(await self._rollouts.send(edit, project, copy.flag.name))
            except errors.FlagtuiError as exc:
                if not stored:
                    raise
                raise PartlyCopied(stored, len(copy.edits), exc) from exc
        return stored


class PartlyCopied(errors.FlagtuiError):
    """Some strategies were copied, then one was not (the rest were not sent)."""

    def __init__(self, stored: list[Strategy], planned: int, cause: errors.FlagtuiError) -> None:
        self.stored, self.cause = stored, cause
        ids = ", ".join(s.id or "?" for s in stored)
        super().__init__(
            f"{len(stored)} of {planned} strategies copied ({ids}); the next failed and the"
            f" rest were not sent: {cause}"
        )


def _one(strategies: Sequence[Strategy], key: str, where: str) -> Strategy:
    exact = [s for s in strategies if s.id == key]
    found = exact or [s for s in strategies if key and (s.id or "").startswith(key)]
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{(s.id or '?')[:8]} ({s.name})" for s in strategies) or "none"
    said = "matches several" if found else "matches none"
    raise errors.InvalidArgument("--strategy", f"{key!r} {said} of the strategies in {where}: "
                                 f"{listed}")  # fmt: skip
