"""`client.rollouts`: a flag's strategies and variants in one environment, read and changed
with real Unleash's dedicated routes (`rollout_requests` lists them and what they record).

Every change is checked against the server's catalog (`catalog()`: strategy types, context
fields, segments, read once and passed back in by a caller that holds one) before it is
sent, with `rollout_rules`, so a rollout of 101 %, weights that do not add up or an unknown
context field never leave the client. A read-only profile is refused before any request.
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Sequence

from flagtui.api import errors, rollout_requests, rollout_rules, variant_rules
from flagtui.api.core import Core
from flagtui.api.models import Strategy, Variant
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.rollout_catalogs import ContextFields, Segments, StrategyTypes
from flagtui.api.rollout_requests import PlannedWrite, environment_path
from flagtui.api.wire import EnvironmentVariants, StrategyList, adapter, seg

_STRATEGY = adapter(Strategy)
_VARIANTS = adapter(EnvironmentVariants)


def in_order(strategies: Sequence[Strategy]) -> list[Strategy]:
    """Strategies in the order the SDKs evaluate them (sortOrder; as listed when equal)."""
    return sorted(strategies, key=lambda s: (s.sort_order is None, s.sort_order or 0))


class Rollouts:
    def __init__(
        self,
        core: Core,
        strategy_types: StrategyTypes,
        context_fields: ContextFields,
        segments: Segments,
    ) -> None:
        self._core = core
        self._strategy_types = strategy_types
        self._context_fields = context_fields
        self._segments = segments

    async def catalog(self) -> RolloutCatalog:
        """What rollouts may be made of on this server (three reads, at once)."""
        types, fields, segments = await asyncio.gather(
            self._strategy_types.list(deprecated=True),
            self._context_fields.list(),
            self._segments.list(),
        )
        await self._core.connecting_done()  # the server's version decides the operators
        return RolloutCatalog(types, fields, segments, self._core.server)

    # -- reads -----------------------------------------------------------------------------------

    async def list(self, project: str, feature: str, environment: str) -> list[Strategy]:
        path = f"{environment_path(project, feature, environment)}/strategies"
        return in_order(await self._core.read("GET", path, adapter(StrategyList)))

    async def get(self, project: str, feature: str, environment: str, strategy_id: str) -> Strategy:
        path = f"{environment_path(project, feature, environment)}/strategies/{seg(strategy_id)}"
        return await self._core.read("GET", path, _STRATEGY)

    async def variants(
        self, project: str, feature: str, environment: str
    ) -> builtins.list[Variant]:
        """The environment's variants (deprecated by Unleash for strategy variants)."""
        path = f"{environment_path(project, feature, environment)}/variants"
        return (await self._core.read("GET", path, _VARIANTS)).variants

    # -- writes ----------------------------------------------------------------------------------

    async def add(
        self,
        project: str,
        feature: str,
        environment: str,
        strategy: Strategy,
        *,
        catalog: RolloutCatalog | None = None,
    ) -> Strategy:
        """Add a strategy after the others (feature-strategy-add); the strategy as stored."""
        self._core.require_writable("add strategy")
        catalog = catalog or await self.catalog()
        checked = rollout_rules.strategy(strategy, catalog, feature=feature)
        plan = rollout_requests.add_strategy(project, feature, environment, checked)
        return await self._strategy_write(plan)

    async def update(
        self,
        project: str,
        feature: str,
        environment: str,
        strategy: Strategy,
        *,
        catalog: RolloutCatalog | None = None,
    ) -> Strategy:
        """Replace strategy `strategy.id` with `strategy` (feature-strategy-update): its
        parameters, constraints, segments and variants become the ones given. Read first: an
        unknown id is a NotFoundError; a strategy already as given is NothingToSend (Unleash
        would record an update all the same); constraints kept as they were are not refused
        for a context field the server no longer lists."""
        if strategy.id is None:
            raise errors.InvalidArgument("id", "the id of the strategy to update")
        self._core.require_writable("update strategy")
        existing = await self.get(project, feature, environment, strategy.id)
        catalog = catalog or await self.catalog()
        checked = rollout_rules.strategy(strategy, catalog, feature=feature, existing=existing)
        plan = rollout_requests.update_strategy(project, feature, environment, checked)
        if plan.body == rollout_requests.strategy_body(existing):
            state = f"already so in {feature}/{environment}"
            raise errors.NothingToSend(f"strategy {strategy.id}", state, plan.action)
        return await self._strategy_write(plan)

    async def set_disabled(
        self, project: str, feature: str, environment: str, strategy_id: str, disabled: bool
    ) -> Strategy:
        """Disable (or enable) one strategy, nothing else resent. Already so: NothingToSend.
        Disabling the last enabled one switches the environment off (Unleash does)."""
        plan = rollout_requests.set_strategy_disabled(
            project, feature, environment, strategy_id, disabled
        )
        self._core.require_writable(plan.action)
        current = await self.get(project, feature, environment, strategy_id)
        if bool(current.disabled) == disabled:
            state = f"already {'disabled' if disabled else 'enabled'} in {feature}/{environment}"
            raise errors.NothingToSend(f"strategy {strategy_id}", state, plan.action)
        return await self._strategy_write(plan)

    async def remove(self, project: str, feature: str, environment: str, strategy_id: str) -> None:
        """Remove one strategy (feature-strategy-remove); unknown: NotFoundError."""
        plan = rollout_requests.remove_strategy(project, feature, environment, strategy_id)
        await self._send(plan)

    async def set_order(
        self, project: str, feature: str, environment: str, first: Sequence[str]
    ) -> builtins.list[Strategy]:
        """Put the strategies `first` names at the top, in that order, the others after them
        as they were (strategy-order-changed); the strategies in their new order."""
        self._core.require_writable("reorder strategies")
        current = [s.id for s in await self.list(project, feature, environment) if s.id]
        for i, strategy_id in enumerate(first):
            if strategy_id not in current:
                said = f"no strategy {strategy_id!r} in {feature}/{environment}"
                raise errors.InvalidArgument(f"strategies[{i}]", said)
            if strategy_id in first[:i]:
                raise errors.InvalidArgument(f"strategies[{i}]", f"{strategy_id!r} given twice")
        order = [*first, *(s for s in current if s not in first)]
        if order == current:
            state = f"already in that order in {feature}/{environment}"
            raise errors.NothingToSend("the strategies", state, "reorder strategies")
        await self._send(rollout_requests.set_strategy_order(project, feature, environment, order))
        return await self.list(project, feature, environment)

    async def set_variants(
        self,
        project: str,
        feature: str,
        environment: str,
        variants: Sequence[Variant],
        *,
        catalog: RolloutCatalog | None = None,
    ) -> builtins.list[Variant]:
        """Replace the environment's variants (feature-environment-variants-updated); their
        weights as stored. Unleash refuses it on a flag without environment variants: that is
        NotSupported, naming strategy variants instead."""
        self._core.require_writable("set variants")
        catalog = catalog or await self.catalog()
        checked = variant_rules.variants(variants, catalog, environment=True)
        plan = rollout_requests.set_environment_variants(project, feature, environment, checked)
        try:
            answer = await self._core.write(
                plan.action, plan.method, plan.path, _VARIANTS, plan.body
            )
        except errors.NoAccessError as exc:
            if "deprecated" not in exc.message:
                raise
            needs = "a flag that has some already (Unleash deprecated them for strategy variants)"
            label = self._core.server_label()
            raise errors.NotSupported("Environment variants", label, needs) from None
        assert answer is not None
        return list(answer.variants)

    # -- helpers ---------------------------------------------------------------------------------

    async def _send(self, plan: PlannedWrite) -> None:
        await self._core.write(plan.action, plan.method, plan.path, json=plan.body)

    async def _strategy_write(self, plan: PlannedWrite) -> Strategy:
        stored = await self._core.write(plan.action, plan.method, plan.path, _STRATEGY, plan.body)
        assert stored is not None
        return stored
