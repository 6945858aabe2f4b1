"""`client.dependencies`: a flag's dependency on a parent flag, with real Unleash's routes.

A child flag is on for a user only if its parent is too (with `enabled: false`, only if the
parent is off; with `variants`, only if the parent gives one of them): SDKs evaluate the parent
first, from the same client API answer. What real Unleash 6.10.1, 7.5.1 and 8.2.0 do:
- POST /api/admin/projects/:p/features/:child/dependencies `{feature, enabled?, variants?}`:
  200, `feature-dependency-added`. One parent per flag: a new one replaces the old. It refuses
  (403 InvalidOperationError) a flag depending on itself, a child other flags depend on, a
  parent that has a parent itself (one level only, so no cycle), a parent that is not a live
  flag; and (404) a parent of another project. The client refuses each of these first, from the
  two flags read, saying why.
- DELETE …/dependencies/:parent (`feature-dependency-removed`) and DELETE …/dependencies
  (`feature-dependencies-removed`): 8.2.0 answers 404 when there is none, 6.10.1 and 7.5.1 200
  (the single one with an event all the same): the client sends neither then (NothingToSend).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flagtui.api import errors, validation
from flagtui.api.core import Core
from flagtui.api.features import Features
from flagtui.api.models import Dependency, Feature
from flagtui.api.rollout_requests import PlannedWrite
from flagtui.api.wire import seg


@dataclass(frozen=True)
class DependencyPlan:
    """A dependency to add or remove, as it will be sent, with the flags read just before:
    `parent` is the flag the child will depend on (None: a removal)."""

    project: str
    child: Feature
    parent: Feature | None
    write: PlannedWrite
    replaces: Dependency | None = None

    @property
    def dependency(self) -> dict[str, object] | None:
        """The dependency the child will have, as its record says it (None: none)."""
        if self.parent is None:
            return None
        body = dict(self.write.body or {})
        return {"feature": body["feature"], "enabled": body.get("enabled", True),
                "variants": list(body.get("variants") or [])}  # fmt: skip


def _names(flags: Sequence[str]) -> str:
    return ", ".join(flags)


class Dependencies:
    def __init__(self, core: Core, features: Features) -> None:
        self._core = core
        self._features = features

    def _path(self, project: str, child: str) -> str:
        return f"/api/admin/projects/{seg(project)}/features/{seg(child)}/dependencies"

    async def plan_add(
        self,
        project: str,
        child: str,
        parent: str,
        *,
        enabled: bool = True,
        variants: Sequence[str] = (),
    ) -> DependencyPlan:
        """Checked as real Unleash checks it, from the two flags read now (an unknown child:
        NotFoundError); the same dependency already there: NothingToSend."""
        validation.flag_name(child, field="CHILD")
        validation.flag_name(parent, field="PARENT")
        for v in variants:
            validation.flag_name(v, field="--variant")
        if variants and not enabled:
            raise errors.InvalidArgument(
                "--variant", "only with --enabled: a parent that must be off gives no variant"
            )
        if parent == child:
            raise errors.InvalidArgument("PARENT", "another flag: a flag cannot depend on itself")
        self._core.require_writable("add dependency")
        flag = await self._features.get(project, child)
        if flag.children:
            raise errors.InvalidArgument(
                "CHILD", f"a flag no other flag depends on ({_names(flag.children)} depend on"
                f" {child}; Unleash allows one level of dependency)",
            )  # fmt: skip
        try:
            on = await self._features.get(project, parent)
        except errors.NotFoundError:
            raise errors.InvalidArgument(
                "PARENT", f"a live flag of project {project} (no flag {parent} there: Unleash lets"
                " a flag depend only on a flag of its own project)",
            ) from None  # fmt: skip
        if on.dependencies:
            raise errors.InvalidArgument(
                "PARENT", f"a flag with no parent of its own ({parent} depends on"
                f" {_names([d.feature for d in on.dependencies])}; Unleash allows one level)",
            )  # fmt: skip
        body: dict[str, object] = {"feature": parent, "enabled": enabled}
        if variants:
            body["variants"] = list(dict.fromkeys(variants))
        current = next(iter(flag.dependencies or []), None)
        if current is not None and (
            current.feature == parent
            and (current.enabled is not False) == enabled
            and sorted(current.variants or []) == sorted(variants)
        ):
            raise errors.NothingToSend(child, f"already a child of {parent}, as asked", "depend")
        write = PlannedWrite("add dependency", "POST", self._path(project, child), body)
        return DependencyPlan(project, flag, on, write, current)

    async def plan_remove(
        self, project: str, child: str, parent: str | None = None
    ) -> DependencyPlan:
        """Its dependency on `parent` (None: whichever it has); none: NothingToSend."""
        validation.flag_name(child, field="CHILD")
        self._core.require_writable("remove dependency")
        flag = await self._features.get(project, child)
        current = next(iter(flag.dependencies or []), None)
        if current is None:
            raise errors.NothingToSend(child, "a child of no flag", "undepend")
        path = self._path(project, child)
        if parent is None:
            write = PlannedWrite("remove dependencies", "DELETE", path)
        elif parent != current.feature:
            raise errors.InvalidArgument(
                "PARENT", f"the flag {child} depends on ({current.feature}), or none"
            )
        else:
            write = PlannedWrite("remove dependency", "DELETE", f"{path}/{seg(parent)}")
        return DependencyPlan(project, flag, None, write, current)

    async def send(self, plan: DependencyPlan) -> Feature:
        """The planned request; then the child, read again (its dependencies as stored)."""
        w = plan.write
        await self._core.write(w.action, w.method, w.path, json=w.body)
        return await self._features.get(plan.project, plan.child.name)
