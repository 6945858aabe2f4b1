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
from flagtui.api.context_fields import ContextFields
from flagtui.api.core import Core
from flagtui.api.edits import Edit, EditConflict, FieldChange, changed_fields
from flagtui.api.events import Events
from flagtui.api.models import EventRecord, Strategy, Variant
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.rollout_catalogs import Segments, StrategyTypes
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
        events: Events,
    ) -> None:
        self._core = core
        self._events = events
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

    def plan_add(
        self, project: str, feature: str, environment: str, s: Strategy, catalog: RolloutCatalog
    ) -> Edit:
        """The checked request adding `s` after the others (nothing of anyone's is replaced)."""
        checked = rollout_rules.strategy(s, catalog, feature=feature)
        return Edit(
            rollout_requests.add_strategy(project, feature, environment, checked), None, checked
        )

    def plan_update(
        self,
        project: str,
        feature: str,
        environment: str,
        s: Strategy,
        catalog: RolloutCatalog,
        opened_on: Strategy,
    ) -> Edit:
        """The checked request replacing strategy `s.id` with `s`, made from `opened_on` (the
        strategy as the form or command showed it). A context field the server does not list
        is taken (`rollout_rules.unlisted_fields` warns of it). Already as `opened_on` is:
        NothingToSend."""
        if s.id is None:
            raise errors.InvalidArgument("id", "the id of the strategy to update")
        checked = rollout_rules.strategy(s, catalog, feature=feature, existing=opened_on)
        plan = rollout_requests.update_strategy(project, feature, environment, checked)
        shown = rollout_requests.strategy_body(opened_on)
        if plan.body == shown:
            state = f"already so in {feature}/{environment}"
            raise errors.NothingToSend(f"strategy {s.id}", state, plan.action)
        return Edit(plan, shown, checked)

    async def send(
        self, edit: Edit, project: str, feature: str, *, anyway: bool = False
    ) -> Strategy:
        """Send a planned strategy write as shown. An update reads the strategy again first:
        changed since `edit.opened_on` is EditConflict (nothing sent) unless `anyway`; already
        as the plan leaves it is NothingToSend (Unleash would record an update all the same)."""
        plan = edit.plan
        self._core.require_writable(plan.action)
        if edit.opened_on is not None:
            now = await self._core.read("GET", plan.path, _STRATEGY)
            body = rollout_requests.strategy_body(now)
            changed = changed_fields(edit.opened_on, body)
            if changed and not anyway:
                what = f"strategy {now.id} of {feature}"
                recorded = await self._recorded(project, feature)
                raise EditConflict(what, plan.action, changed, now, recorded)
            if _leaves(plan, body) == body:
                raise errors.NothingToSend(f"strategy {now.id}", "already as sent", plan.action)
        return await self._strategy_write(plan)

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
        edit = self.plan_add(project, feature, environment, strategy, catalog)
        return await self.send(edit, project, feature)

    async def update(
        self,
        project: str,
        feature: str,
        environment: str,
        strategy: Strategy,
        *,
        catalog: RolloutCatalog | None = None,
        opened_on: Strategy | None = None,
    ) -> Strategy:
        """Replace strategy `strategy.id` with `strategy` (feature-strategy-update): its
        parameters, constraints, segments and variants become the ones given. `opened_on` is
        the state `strategy` was made from (read here when not given): changed since is
        EditConflict. An unknown id is a NotFoundError."""
        if strategy.id is None:
            raise errors.InvalidArgument("id", "the id of the strategy to update")
        self._core.require_writable("update strategy")
        if opened_on is None:
            opened_on = await self.get(project, feature, environment, strategy.id)
        catalog = catalog or await self.catalog()
        edit = self.plan_update(project, feature, environment, strategy, catalog, opened_on)
        return await self.send(edit, project, feature)

    def plan_set_disabled(
        self, project: str, feature: str, environment: str, shown: Strategy, disabled: bool
    ) -> Edit:
        """The PATCH disabling (or enabling) strategy `shown`, made from it as shown: `send`
        stops it when the strategy changed since (disabling another admin's rollout unseen)."""
        assert shown.id is not None, "a strategy read from the server has an id"
        plan = rollout_requests.set_strategy_disabled(
            project, feature, environment, shown.id, disabled
        )
        return Edit(plan, rollout_requests.strategy_body(shown), shown)

    async def set_disabled(
        self, project: str, feature: str, environment: str, strategy_id: str, disabled: bool
    ) -> Strategy:
        """Disable (or enable) one strategy as it is now, nothing else resent. Already so:
        NothingToSend. Disabling the last enabled one switches the environment off (Unleash
        does)."""
        self._core.require_writable("disable strategy" if disabled else "enable strategy")
        current = await self.get(project, feature, environment, strategy_id)
        edit = self.plan_set_disabled(project, feature, environment, current, disabled)
        if bool(current.disabled) == disabled:
            state = f"already {'disabled' if disabled else 'enabled'} in {feature}/{environment}"
            raise errors.NothingToSend(f"strategy {strategy_id}", state, edit.plan.action)
        return await self.send(Edit(edit.plan, None, current), project, feature)  # just read

    async def remove(self, project: str, feature: str, environment: str, strategy_id: str) -> None:
        """Remove one strategy (feature-strategy-remove); unknown: NotFoundError."""
        plan = rollout_requests.remove_strategy(project, feature, environment, strategy_id)
        await self._send(plan)

    async def set_order(
        self,
        project: str,
        feature: str,
        environment: str,
        first: Sequence[str],
        *,
        shown: Sequence[str] | None = None,
        anyway: bool = False,
    ) -> builtins.list[Strategy]:
        """Put the strategies `first` names at the top, in that order, the others after them
        as they were (strategy-order-changed); the strategies in their new order. `shown`: the
        order the caller read; another since (read again here) is EditConflict, nothing sent,
        unless `anyway` (then `first` goes on top of the order as it is now)."""
        self._core.require_writable("reorder strategies")
        current = [s.id for s in await self.list(project, feature, environment) if s.id]
        if shown is not None and not anyway and list(shown) != current:
            changed = [FieldChange("order", list(shown), current)]
            recorded = await self._recorded(project, feature)
            what = f"the strategy order of {feature}"
            raise EditConflict(what, "reorder strategies", changed, current, recorded)
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

    def plan_variants(
        self,
        project: str,
        feature: str,
        environment: str,
        variants: Sequence[Variant],
        catalog: RolloutCatalog,
        opened_on: Sequence[Variant],
    ) -> Edit:
        """The checked request replacing the environment's variants, made from `opened_on`
        (the variants as the form or command showed them)."""
        checked = variant_rules.variants(variants, catalog, environment=True)
        plan = rollout_requests.set_environment_variants(project, feature, environment, checked)
        shown = {"variants": rollout_requests.variants_body(opened_on)}
        return Edit(plan, shown, checked)

    async def send_variants(
        self, edit: Edit, project: str, feature: str, *, anyway: bool = False
    ) -> builtins.list[Variant]:
        """Send planned variants as shown (feature-environment-variants-updated); their weights
        as stored. Read again first: changed since `edit.opened_on` is EditConflict (nothing
        sent) unless `anyway`. Unleash refuses it on a flag without environment variants: that
        is NotSupported, naming strategy variants instead."""
        plan = edit.plan
        self._core.require_writable(plan.action)
        if edit.opened_on is not None and not anyway:
            now = (await self._core.read("GET", plan.path, _VARIANTS)).variants
            changed = changed_fields(
                edit.opened_on, {"variants": rollout_requests.variants_body(now)}
            )
            if changed:
                recorded = await self._recorded(project, feature)
                what = f"the variants of {feature}"
                raise EditConflict(what, plan.action, changed, now, recorded)
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

    async def set_variants(
        self,
        project: str,
        feature: str,
        environment: str,
        variants: Sequence[Variant],
        *,
        catalog: RolloutCatalog | None = None,
        opened_on: Sequence[Variant] | None = None,
    ) -> builtins.list[Variant]:
        """Replace the environment's variants, made from `opened_on` (None: nothing to compare,
        the command's whole list replaces whatever is there)."""
        self._core.require_writable("set variants")
        catalog = catalog or await self.catalog()
        edit = self.plan_variants(project, feature, environment, variants, catalog, opened_on or [])
        if opened_on is None:  # a whole list that replaces whatever is there
            edit = Edit(edit.plan, None, edit.checked)
        return await self.send_variants(edit, project, feature)

    # -- helpers ---------------------------------------------------------------------------------

    async def _recorded(self, project: str, feature: str) -> builtins.list[EventRecord]:
        """The flag's newest events (who changed it, when); none where the log is closed."""
        try:
            return (await self._events.search(project=project, feature=feature, limit=5)).events
        except errors.FlagtuiError:
            return []

    async def _send(self, plan: PlannedWrite) -> None:
        await self._core.write(plan.action, plan.method, plan.path, json=plan.body)

    async def _strategy_write(self, plan: PlannedWrite) -> Strategy:
        stored = await self._core.write(plan.action, plan.method, plan.path, _STRATEGY, plan.body)
        assert stored is not None
        return stored


def _leaves(plan: PlannedWrite, body: dict[str, object]) -> object:
    """The strategy as `plan` leaves the one read (`body`): an update's body, or a PATCH's
    replaced fields over it."""
    if plan.method != "PATCH":
        return plan.body
    return {**body, **{op["path"].lstrip("/"): op["value"] for op in plan.body}}
