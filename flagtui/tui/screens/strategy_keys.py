"""The strategy keys of a feature's detail (issue 25, item 2): add and edit a strategy in a form
(`StrategyFormScreen`), enable one (the reverse of `D`), remove one, move one up or down.

Each asks which environment and which strategy (pickers, as `RolloutKeys` does, whose question
and one-write-at-a-time it reuses), reads the environment again, shows exactly the request
before sending (production says so) and afterwards reads the flag again (`written`). `K`/`J`
are made against the order the detail shows: the client compares it with the server's just
before sending, and another admin's reorder, add or removal since is shown (`ask_overtaken`)
with reload and "send mine anyway", nothing sent. Read-only
profiles never get here (write actions); the client refuses too, before any request."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from flagtui.api import rollout_requests
from flagtui.api.edits import EditConflict
from flagtui.api.errors import NothingToSend
from flagtui.api.models import Feature, FeatureEnvironment, Strategy
from flagtui.rollout_words import in_sort_order, strategy_lines
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.rollout_keys import RolloutKeys, environment_label

FORM_READS = "strategy-form-read"


def _count(n: int) -> str:
    return f"{n} strateg{'y' if n == 1 else 'ies'}"


class StrategyKeys:
    def __init__(self, keys: RolloutKeys) -> None:
        self.keys = keys  # the screen, its pickers, its question, its write group

    @property
    def screen(self) -> AreaScreen:
        return self.keys.screen

    def _strategy_of(
        self,
        feature: Feature,
        wanted: Callable[[Strategy], bool],
        what: str,
        verb: str,
        then: Callable[[FeatureEnvironment, list[Strategy], int], object],
    ) -> None:
        """Pick the environment, then the strategy (`wanted` ones), then `then(env, live, i)`."""
        envs = self.keys._environments(feature, wanted, what)
        if envs is None:
            return

        def env_picked(index: int) -> None:
            env = envs[index]
            live = [s for s in in_sort_order(env.strategies) if wanted(s)]
            labels = [f"{s.id} · {strategy_lines(s, {})[0]}" for s in live]
            title = f"{verb} which strategy of {feature.name} in {env.name}?"
            self.keys._pick(title, labels, lambda i: then(env, live, i))

        counted = [environment_label(e, _count(sum(map(wanted, e.strategies or [])))) for e in envs]
        self.keys._pick(f"{verb} a strategy of {feature.name} in which environment?", counted,
                        env_picked)  # fmt: skip

    # -- the form: add, edit ---------------------------------------------------------------------

    def add(self, project: str, feature: Feature) -> None:
        envs = list(feature.environments or [])
        labels = [environment_label(e, _count(len(e.strategies or []))) for e in envs]
        if not envs:
            said = f"Nothing to add to: {feature.name} has no environment in this project."
            self.keys.flagtui.notify(said, severity="warning")
            return

        def picked(index: int) -> None:
            self._open_form(project, feature.name, envs[index].name, None)

        self.keys._pick(f"Add a strategy to {feature.name} in which environment?", labels, picked)

    def edit(self, project: str, feature: Feature) -> None:
        def then(env: FeatureEnvironment, live: list[Strategy], i: int) -> None:
            self._open_form(project, feature.name, env.name, live[i].id)

        self._strategy_of(feature, lambda s: True, "strategy", "Edit", then)

    def _open_form(
        self, project: str, name: str, environment: str, strategy_id: str | None
    ) -> None:
        self.screen.run_worker(
            self._read_then_open(project, name, environment, strategy_id),
            group=FORM_READS, exclusive=True, exit_on_error=False,
        )  # fmt: skip

    async def _read_then_open(
        self, project: str, name: str, environment: str, strategy_id: str | None
    ) -> None:
        """The catalog and the flag as they are now (the form checks and previews against
        them), and the flags it depends on (the preview evaluates them too)."""
        client = self.keys.flagtui.client
        catalog, feature = await asyncio.gather(
            client.rollouts.catalog(), client.features.get(project, name)
        )
        env = next((e for e in feature.environments or [] if e.name == environment), None)
        found = [s for s in (env.strategies if env else None) or [] if s.id == strategy_id]
        if env is None or (strategy_id is not None and not found):
            gone = environment if env is None else f"strategy {strategy_id}"
            self.keys.flagtui.notify(f"{name} has no {gone} any more", severity="warning")
            self.keys.written()
            return
        related = await asyncio.gather(
            *(client.features.get(project, d.feature) for d in feature.dependencies or [])
        )
        existing = found[0] if found else None
        if existing is None and all(t.deprecated for t in catalog.strategy_types):
            said = "Nothing to add: this server lists no strategy type that is not deprecated"
            self.keys.flagtui.notify(said, severity="warning")
            return
        # here, not at the top: the form and the SDKs' engine its preview loads (~20 ms of
        # imports) load when a form first opens, not with every feature's detail
        from flagtui.tui.screens.strategy_form import StrategyFormScreen

        form = StrategyFormScreen(project, feature, env, catalog, existing, list(related))

        def closed(_sent: bool | None) -> None:
            self.keys.written()

        self.screen.app.push_screen(form, closed)

    # -- enable, remove, move --------------------------------------------------------------------

    def enable(self, project: str, feature: Feature) -> None:
        def then(env: FeatureEnvironment, live: list[Strategy], i: int) -> None:
            self.keys._run(self._ask_enable(project, feature.name, env, live[i]))

        disabled = lambda s: bool(s.disabled)  # noqa: E731
        self._strategy_of(feature, disabled, "disabled strategy", "Enable", then)

    async def _ask_enable(
        self, project: str, name: str, env: FeatureEnvironment, s: Strategy
    ) -> None:
        # Here, not at the top: it loads the SDK engine
        from flagtui.preview.share import with_strategy_disabled

        plan = rollout_requests.set_strategy_disabled(project, name, env.name, str(s.id), False)
        said = f"Strategy {strategy_lines(s, {})[0]} is evaluated again."
        if not env.enabled:
            said += f" {env.name} stays off: t switches it on."
        send = lambda: self._enable(project, name, env.name, str(s.id))  # noqa: E731
        title = f"Enable strategy {s.id} of {name} in {env.name}"
        on = lambda f: with_strategy_disabled(f, env.name, str(s.id), False)  # noqa: E731
        share = await self.keys.share(project, name, env.name, on)
        self.keys._ask(env, title, said, [plan], "Enable", send, share)

    async def _enable(self, project: str, name: str, environment: str, strategy_id: str) -> None:
        rollouts = self.keys.flagtui.client.rollouts
        try:
            await rollouts.set_disabled(project, name, environment, strategy_id, False)
        except NothingToSend as same:
            self.keys.flagtui.notify(f"Nothing sent: {same}", severity="warning")
        else:
            self.keys.flagtui.notify(f"Strategy {strategy_id} of {name} enabled in {environment}")
        finally:
            self.keys.written()

    def remove(self, project: str, feature: Feature) -> None:
        def then(env: FeatureEnvironment, live: list[Strategy], i: int) -> None:
            self.keys._run(self._ask_remove(project, feature.name, env, live, live[i]))

        self._strategy_of(feature, lambda s: True, "strategy", "Remove", then)

    async def _ask_remove(
        self, project: str, name: str, env: FeatureEnvironment, live: list[Strategy], s: Strategy
    ) -> None:
        # Here, not at the top: it loads the SDK engine
        from flagtui.preview.share import without_strategy

        plan = rollout_requests.remove_strategy(project, name, env.name, str(s.id))
        said = f"Strategy {strategy_lines(s, {})[0]} is removed for good."
        if not any(not o.disabled for o in live if o.id != s.id) and env.enabled:
            said += f" No enabled strategy is left: Unleash then switches {env.name} off."
        send = lambda: self._remove(project, name, env.name, str(s.id))  # noqa: E731
        title = f"Remove strategy {s.id} of {name} in {env.name}"
        gone = lambda f: without_strategy(f, env.name, str(s.id))  # noqa: E731
        share = await self.keys.share(project, name, env.name, gone)
        self.keys._ask(env, title, said, [plan], "Remove", send, share)

    async def _remove(self, project: str, name: str, environment: str, strategy_id: str) -> None:
        try:
            await self.keys.flagtui.client.rollouts.remove(project, name, environment, strategy_id)
        finally:
            self.keys.written()
        self.keys.flagtui.notify(f"Strategy {strategy_id} of {name} removed from {environment}")

    def move(self, project: str, feature: Feature, step: int) -> None:
        """`step` -1: up (evaluated earlier), 1: down; made against the order shown."""
        verb = "Move up" if step < 0 else "Move down"

        def then(env: FeatureEnvironment, live: list[Strategy], i: int) -> None:
            self._ask_move(project, feature.name, env, live, str(live[i].id), step)

        several = [e for e in feature.environments or [] if len(e.strategies or []) > 1]
        orderable = feature.model_copy(update={"environments": several})
        self._strategy_of(orderable, lambda s: True, "second strategy to order", verb, then)

    def _ask_move(
        self,
        project: str,
        name: str,
        env: FeatureEnvironment,
        live: list[Strategy],
        moved: str,
        step: int,
    ) -> None:
        """`live`: the strategies in the order shown (the state the move is made from)."""
        shown = [str(s.id) for s in live]
        if moved not in shown:
            said = f"Nothing sent: strategy {moved} is no longer in {env.name}."
            self.keys.flagtui.notify(said, severity="warning")
            return
        i = shown.index(moved)
        j = i + step
        if not 0 <= j < len(shown):
            where = "first" if step < 0 else "last"
            said = f"Nothing sent: strategy {moved} is {where} in {env.name} already."
            self.keys.flagtui.notify(said, severity="warning")
            return
        ids = list(shown)
        ids[i], ids[j] = ids[j], ids[i]
        plan = rollout_requests.set_strategy_order(project, name, env.name, ids)
        said = f"Strategy {moved} is evaluated {'before' if step < 0 else 'after'}" \
            f" strategy {shown[j]}."  # fmt: skip
        send = lambda: self._move(project, name, env, ids, shown, (moved, step))  # noqa: E731
        self.keys._ask(env, f"Reorder the strategies of {name} in {env.name}", said, [plan],
                       "Reorder", send)  # fmt: skip

    async def _move(
        self,
        project: str,
        name: str,
        env: FeatureEnvironment,
        order: list[str],
        shown: list[str],
        move: tuple[str, int],
        anyway: bool = False,
    ) -> None:
        """Another admin's reorder, add or removal since `shown` stops it (nothing sent):
        reload asks again on the order as it is now; anyway puts `order` first (the ones
        still there), theirs after it. `move`: the strategy moved and its step."""
        rollouts = self.keys.flagtui.client.rollouts
        try:
            await rollouts.set_order(project, name, env.name, order, shown=shown, anyway=anyway)
        except NothingToSend as same:
            self.keys.flagtui.notify(f"Nothing sent: {same}", severity="warning")
        except EditConflict as overtaken:
            mine = [i for i in order if i in overtaken.now]
            again = lambda: self.keys._run(self._move_again(project, name, env, move))  # noqa: E731
            send = lambda: self.keys._run(  # noqa: E731
                self._move(project, name, env, mine, shown, move, True)
            )
            says = "the move in the order as it is now."
            self.keys._overtaken(overtaken, env, says, again, send)
        else:
            self.keys.flagtui.notify(f"Strategies of {name} reordered in {env.name}")
        finally:
            self.keys.written()

    async def _move_again(
        self, project: str, name: str, env: FeatureEnvironment, move: tuple[str, int]
    ) -> None:
        live = await self.keys.flagtui.client.rollouts.list(project, name, env.name)
        self._ask_move(project, name, env, live, *move)
