"""`client.default_strategies`: the strategy a project gives a flag switched on in one
environment with no strategy of its own.

Real Unleash (6.10.1, 7.5.1, 8.2.0) has no route to read it alone and none to PUT it: it is
`defaultStrategy` of the environment in `GET /api/admin/environments/project/:p` (absent until
set), and is set with `POST /api/admin/projects/:p/environments/:env/default-strategy` (200
with the strategy stored; records `default-strategy-updated`, preData the one before). Only
`flexibleRollout` is taken (400 otherwise); an unknown project or environment is a 500 there,
refused here first.

What it changes, checked on 8.2.0: no flag's evaluation now (existing strategies stay as
they are), and no flag created afterwards (it starts with no strategy, every environment off).
A flag switched on in that environment while it has no enabled strategy gets a copy of it
(an empty `groupId` becomes the flag's name) instead of Unleash's flexibleRollout at 100 %.
"""

from __future__ import annotations

from dataclasses import dataclass

from flagtui.api import errors
from flagtui.api.core import Core
from flagtui.api.environments import Environments
from flagtui.api.models import ProjectEnvironment, Strategy
from flagtui.api.rollout_requests import PlannedWrite, strategy_body
from flagtui.api.wire import adapter, seg

# What Unleash switches a flag on with when the project says nothing (its groupId the flag's).
BUILT_IN = Strategy(
    name="flexibleRollout",
    constraints=[],
    parameters={"rollout": "100", "stickiness": "default", "groupId": ""},
)
_STRATEGY = adapter(Strategy)


@dataclass(frozen=True)
class DefaultStrategyPlan:
    project: str
    environment: str
    before: Strategy | None  # None: Unleash's built-in one (BUILT_IN)
    write: PlannedWrite


class DefaultStrategies:
    def __init__(self, core: Core, environments: Environments) -> None:
        self._core = core
        self._environments = environments

    async def environment(self, project: str, environment: str) -> ProjectEnvironment:
        """The project's environment (not linked to it: InvalidArgument naming the linked)."""
        envs = await self._environments.list(project)
        linked = [e for e in envs if e.visible is not False]
        found = next((e for e in linked if e.name == environment), None)
        if found is None:
            names = ", ".join(e.name for e in linked) or "none"
            raise errors.InvalidArgument(
                "--env", f"an environment of project {project} ({names}), not {environment!r}"
            )
        return found

    async def get(self, project: str, environment: str) -> Strategy | None:
        """The project's default strategy in `environment`; None: Unleash's own (BUILT_IN)."""
        return (await self.environment(project, environment)).default_strategy

    async def plan_set(
        self, project: str, environment: str, strategy: Strategy
    ) -> DefaultStrategyPlan:
        """The strategy as it will be sent (checked by the caller with `rollout_rules`): only a
        flexibleRollout, as Unleash takes; what it replaces, read now."""
        if strategy.name != "flexibleRollout":
            raise errors.InvalidArgument(
                "--type", "flexibleRollout: Unleash takes no other as a default strategy"
            )
        if strategy.disabled:
            raise errors.InvalidArgument("--disabled", "not for a default strategy")
        self._core.require_writable("set default strategy")
        before = (await self.environment(project, environment)).default_strategy
        body = strategy_body(strategy)
        body.pop("disabled", None)
        for empty in ("segments", "variants"):
            if not body.get(empty):
                body.pop(empty, None)
        if before is not None and _same(strategy_body(before), body):
            raise errors.NothingToSend(
                f"{project}/{environment}", "using that default strategy already",
                "set default strategy",
            )  # fmt: skip
        path = (
            f"/api/admin/projects/{seg(project)}/environments/{seg(environment)}/default-strategy"
        )
        return DefaultStrategyPlan(
            project, environment, before, PlannedWrite("set default strategy", "POST", path, body)
        )

    async def send(self, plan: DefaultStrategyPlan) -> Strategy:
        w = plan.write
        stored = await self._core.write(w.action, w.method, w.path, _STRATEGY, w.body)
        assert stored is not None
        return stored


def _same(before: dict[str, object], after: dict[str, object]) -> bool:
    keys = ("name", "parameters", "constraints", "title")
    return all(before.get(k) == after.get(k) for k in keys) and (
        before.get("segments") or []) == (after.get("segments") or [])  # fmt: skip
