"""The two keys of a feature's detail for the 3 a.m. change (issue 25): roll the gradual
rollouts (flexibleRollout) of one environment back to 0 %, and disable one strategy.

Each asks which environment (a picker when several qualify) and which strategy (when several),
reads the environment's strategies and the server's catalog again, then shows exactly the
request(s) it will send (`PlannedWrite.shown()`) in a confirmation; in an environment of type
production the question says so, as the toggle's does. One write at a time; afterwards the
screen reads the flag again (`written`), so the detail shows the new rollout.

A part the screen holds, as `EnvironmentToggle` is: the screen puts `RolloutKeys.bindings()` in
its BINDINGS and `RolloutKeys.ACTIONS` in its WRITE_ACTIONS. Read-only profiles never get here
(the actions are write actions); the client refuses too, before any request."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding

from flagtui import words
from flagtui.api import rollout_requests
from flagtui.api.edits import Edit, EditConflict
from flagtui.api.errors import FlagtuiError, NothingToSend
from flagtui.api.models import Feature, FeatureEnvironment, Strategy
from flagtui.api.rollout_requests import PlannedWrite
from flagtui.rollout_words import strategy_lines
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.share_text import After, share_of, share_text

if TYPE_CHECKING:
    from flagtui.preview import PreviewError
    from flagtui.preview.share import ShareChange

ROLLOUT_GROUP = "rollout-write"  # the writes' (and the reads before them) worker group
GRADUAL = "flexibleRollout"


def is_gradual(s: Strategy) -> bool:
    return s.name == GRADUAL


def _with_all(flag: Feature, environment: str, strategies: Sequence[Strategy]) -> dict[str, Any]:
    """The flag as Unleash stores each of `strategies` (as sent) in place of the one of its id."""
    # Here, not at the top: it loads the SDK engine
    from flagtui.preview import with_strategy

    record: Any = flag
    for s in strategies:
        sent = rollout_requests.strategy_body(s) | {"id": s.id}
        record = with_strategy(record, environment, sent)
    return dict(record)


def environment_label(env: FeatureEnvironment, counted: str) -> str:
    kind = f" ({env.type})" if env.type else ""
    return f"{env.name}{kind} · {counted}"


class RolloutKeys:
    """`0` and `D` on `screen`; `written()` runs after a write was sent (the screen reads the
    flag again: that read's failure is the read's, not the write's)."""

    ROLL_BACK = "roll_back"
    DISABLE = "disable_strategy"
    ACTIONS = frozenset({ROLL_BACK, DISABLE})

    def __init__(self, screen: AreaScreen, written: Callable[[], object]) -> None:
        self.screen = screen
        self.written = written

    @classmethod
    def bindings(cls) -> list[Binding]:
        return [
            Binding("0", cls.ROLL_BACK, "Roll back to 0 %", id="detail.roll-back",
                    tooltip="Set the gradual rollouts of one environment to 0 % (shows the"
                    " requests first; production asks)"),
            Binding("D", cls.DISABLE, "Disable strategy", id="detail.disable-strategy",
                    tooltip="Disable one strategy of one environment (shows the request first;"
                    " production asks)"),
        ]  # fmt: skip

    @property
    def flagtui(self) -> FlagtuiContext:
        return self.screen.flagtui

    def _environments(
        self, feature: Feature, wanted: Callable[[Strategy], bool], what: str
    ) -> list[FeatureEnvironment] | None:
        if feature.is_archived:
            said = f"{feature.name} is archived: it has no rollout."
            self.flagtui.notify(said, severity="warning")
            return None
        envs = [e for e in feature.environments or [] if any(map(wanted, e.strategies or []))]
        if not envs:
            self.flagtui.notify(
                f"Nothing sent: {feature.name} has no {what} in any environment.",
                severity="warning",
            )
            return None
        return envs

    def _pick(self, title: str, labels: list[str], then: Callable[[int], object]) -> None:
        if len(labels) == 1:
            then(0)
            return

        def picked(index: int | None) -> None:
            if index is not None:
                then(index)

        self.screen.app.push_screen(ChoicePicker(title, labels), picked)

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        if not self.screen.still_sending(ROLLOUT_GROUP):
            self.screen.run_worker(work, group=ROLLOUT_GROUP, exclusive=True, exit_on_error=False)

    def _ask(
        self,
        env: FeatureEnvironment,
        title: str,
        said: str,
        plans: Sequence[PlannedWrite],
        label: str,
        send: Callable[[], Coroutine[Any, Any, None]],
        share: ShareChange | PreviewError | None = None,
    ) -> None:
        """The requests shown, who gets the flag before and after (`share`), the production
        question where it is one, then `send`."""
        if env.type == "production":  # as the toggle asks: the body says production
            said = f"{words.is_production(env.name)} {said}"
        title = f"{title}?"
        n = "these requests" if len(plans) > 1 else "this request"
        who = Text.assemble("\n\n", share_text(share)) if share is not None else Text()
        body = Text.assemble(said, who, f"\nSends {n}:\n", shown_requests(plans))

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(send())

        self.screen.app.push_screen(ConfirmModal(title, body, confirm_label=label), answered)

    # -- roll back to 0 % ------------------------------------------------------------------------

    def roll_back(self, project: str, feature: Feature) -> None:
        envs = self._environments(feature, is_gradual, "gradual rollout (flexibleRollout)")
        if envs is None:
            return

        def counted(env: FeatureEnvironment) -> str:
            n = sum(map(is_gradual, env.strategies or []))
            return f"{n} gradual rollout{'s' if n > 1 else ''}"

        labels = [environment_label(e, counted(e)) for e in envs]
        title = f"Roll {feature.name} back to 0 % in which environment?"

        def picked(index: int) -> None:
            self._run(self._plan_roll_back(project, feature.name, envs[index]))

        self._pick(title, labels, picked)

    async def _plan_roll_back(self, project: str, name: str, env: FeatureEnvironment) -> None:
        client = self.flagtui.client
        catalog = await client.rollouts.catalog()
        current = await client.rollouts.list(project, name, env.name)
        edits: list[Edit] = []
        for s in current:
            if is_gradual(s) and (s.parameters or {}).get("rollout") != "0":
                zero = s.model_copy(update={"parameters": {**(s.parameters or {}), "rollout": "0"}})
                edits.append(client.rollouts.plan_update(project, name, env.name, zero, catalog, s))
        if not edits:
            self.flagtui.notify(
                f"Nothing sent: every gradual rollout of {name} in {env.name} is at 0 % already.",
                severity="warning",
            )
            self.written()
            return
        plans = [edit.plan for edit in edits]
        said = f"{name} will reach no one through its gradual rollouts in {env.name}."
        send = lambda: self._roll_back(project, name, env, edits)  # noqa: E731
        zeroed = [edit.checked for edit in edits]
        share = await self.share(project, name, env.name, lambda f: _with_all(f, env.name, zeroed))
        title = f"Roll {name} back to 0 % in {env.name}"
        self._ask(env, title, said, plans, "Roll back", send, share)

    async def share(
        self, project: str, name: str, environment: str, after: After
    ) -> ShareChange | PreviewError:
        """Who gets the flag before and after (the flag read again, the SDKs' engine)."""
        return await share_of(self.flagtui.client, project, name, environment, after)

    async def _roll_back(
        self,
        project: str,
        name: str,
        env: FeatureEnvironment,
        wanted: Sequence[Edit],
        anyway: bool = False,
    ) -> None:
        """Each edit in turn; one another admin changed since stops the rest (nothing more
        sent) and is asked: reload plans again, `anyway` sends it over their change."""
        rollouts = self.flagtui.client.rollouts
        done: list[str] = []
        try:
            for i, edit in enumerate(wanted):
                # NothingToSend: set to 0 % by someone else since; it is at 0 % all the same
                with suppress(NothingToSend):
                    await rollouts.send(edit, project, name, anyway=anyway and i == 0)
                done.append(str(edit.checked.id))
        except EditConflict as moved:
            rest = wanted[len(done) :]
            again = lambda: self._run(self._plan_roll_back(project, name, env))  # noqa: E731
            mine = lambda: self._run(self._roll_back(project, name, env, rest, True))  # noqa: E731
            self._overtaken(moved, env, "0 again on the strategies as they are now.", again, mine)
            return
        except FlagtuiError:
            if done:  # the failure itself is said by the screen's one handler
                self.flagtui.notify(
                    f"{name} in {env.name}: {len(done)} of {len(wanted)} gradual rollouts"
                    f" set to 0 % before the failure ({', '.join(done)})",
                    severity="warning",
                )
            raise
        finally:
            self.written()
        done_said = words.counted(len(done), "strategy", "strategies")
        self.flagtui.notify(f"{name} rolled back to 0 % in {env.name} ({done_said})")

    def _overtaken(
        self,
        moved: EditConflict,
        env: FeatureEnvironment,
        reload_says: str,
        reload: Callable[[], object],
        anyway: Callable[[], object],
    ) -> None:
        """Another admin's change stopped the write: said on the screen (`ask_overtaken`)."""
        lead = f"Someone changed {moved.what} in {env.name} since it was shown"
        typed = env.name if env.type == "production" else None
        says = f"the question again: {reload_says}"
        ask_overtaken(self.screen.app, moved, lead, says, typed, reload, anyway)

    # -- disable one strategy --------------------------------------------------------------------

    def disable(self, project: str, feature: Feature) -> None:
        def enabled(s: Strategy) -> bool:
            return not s.disabled

        envs = self._environments(feature, enabled, "enabled strategy")
        if envs is None:
            return

        def counted(env: FeatureEnvironment) -> str:
            n = sum(map(enabled, env.strategies or []))
            return f"{n} enabled strateg{'ies' if n > 1 else 'y'}"

        def strategy_picked(env: FeatureEnvironment, index: int) -> None:
            live = [s for s in env.strategies or [] if enabled(s)]
            self._run(self._confirm_disable(project, feature.name, env, live[index], len(live)))

        def env_picked(index: int) -> None:
            env = envs[index]
            live = [s for s in env.strategies or [] if enabled(s)]
            labels = [f"{s.id} · {strategy_lines(s, {})[0]}" for s in live]
            title = f"Disable which strategy of {feature.name} in {env.name}?"
            self._pick(title, labels, lambda i: strategy_picked(env, i))

        labels = [environment_label(e, counted(e)) for e in envs]
        title = f"Disable a strategy of {feature.name} in which environment?"
        self._pick(title, labels, env_picked)

    async def _confirm_disable(
        self, project: str, name: str, env: FeatureEnvironment, s: Strategy, enabled: int
    ) -> None:
        # Here, not at the top: it loads the SDK engine
        from flagtui.preview.share import with_strategy_disabled

        edit = self.flagtui.client.rollouts.plan_set_disabled(project, name, env.name, s, True)
        said = f"Strategy {strategy_lines(s, {})[0]} stops matching anyone."
        if enabled == 1:
            said += f" It is the last enabled one: Unleash then switches {env.name} off."
        send = lambda: self._disable(project, name, env, edit)  # noqa: E731
        title = f"Disable strategy {s.id} of {name} in {env.name}"
        off = lambda f: with_strategy_disabled(f, env.name, str(s.id), True)  # noqa: E731
        share = await self.share(project, name, env.name, off)
        self._ask(env, title, said, [edit.plan], "Disable", send, share)

    async def _disable(
        self, project: str, name: str, env: FeatureEnvironment, edit: Edit, anyway: bool = False
    ) -> None:
        strategy_id = edit.checked.id
        try:
            await self.flagtui.client.rollouts.send(edit, project, name, anyway=anyway)
        except NothingToSend as same:
            self.flagtui.notify(f"Nothing sent: {same}", severity="warning")
        except EditConflict as moved:
            now: Strategy = moved.now
            again = lambda: self._run(self._ask_disable_again(project, name, env, now))  # noqa: E731
            mine = lambda: self._run(self._disable(project, name, env, edit, True))  # noqa: E731
            self._overtaken(moved, env, "disable the strategy as it is now.", again, mine)
        else:
            self.flagtui.notify(f"Strategy {strategy_id} of {name} disabled in {env.name}")
        finally:
            self.written()

    async def _ask_disable_again(
        self, project: str, name: str, env: FeatureEnvironment, now: Strategy
    ) -> None:
        listed = await self.flagtui.client.rollouts.list(project, name, env.name)
        await self._confirm_disable(project, name, env, now, sum(not s.disabled for s in listed))


# -- the strategy keys (issue 25, item 2; flagtui/tui/screens/strategy_keys.py does them) --------
# Kept in one block of their own: the variants' keys are added beside them in another.

ADD_STRATEGY = "add_strategy"
EDIT_STRATEGY = "edit_strategy"
ENABLE_STRATEGY = "enable_strategy"
REMOVE_STRATEGY = "remove_strategy"
MOVE_STRATEGY_UP = "move_strategy_up"
MOVE_STRATEGY_DOWN = "move_strategy_down"
STRATEGY_ACTIONS = frozenset(
    {ADD_STRATEGY, EDIT_STRATEGY, ENABLE_STRATEGY, REMOVE_STRATEGY, MOVE_STRATEGY_UP,
     MOVE_STRATEGY_DOWN}
)  # fmt: skip


def strategy_bindings() -> list[Binding]:
    return [
        Binding("N", ADD_STRATEGY, "New strategy", id="detail.add-strategy",
                tooltip="Add a strategy to one environment: a form, its request and preview"
                " shown before sending"),
        Binding("S", EDIT_STRATEGY, "Edit strategy", id="detail.edit-strategy",
                tooltip="Edit one strategy (rollout %, stickiness, constraints, segments): the"
                " request and preview shown before sending"),
        Binding("E", ENABLE_STRATEGY, "Enable strategy", id="detail.enable-strategy",
                tooltip="Enable a disabled strategy (the reverse of D; production asks)"),
        Binding("X", REMOVE_STRATEGY, "Remove strategy", id="detail.remove-strategy",
                tooltip="Remove one strategy (the request shown first; production asks)"),
        Binding("K", MOVE_STRATEGY_UP, "Strategy up", id="detail.strategy-up",
                tooltip="Move one strategy up in its environment's order"),
        Binding("J", MOVE_STRATEGY_DOWN, "Strategy down", id="detail.strategy-down",
                tooltip="Move one strategy down in its environment's order"),
    ]  # fmt: skip


# -- environment variants (issue 25, item 2): `V` opens the form --------------------------------


class VariantsKey:
    """`V` on `screen`: pick an environment, read its variants and the server's catalog, open
    `VariantFormScreen`; `written()` runs when the form sent something. A flag with no
    environment variants anywhere is told so at once: Unleash (6.10.1 to 8.2.0, and the
    sandbox) refuses them there, so a form would only lose what was typed."""

    ACTION = "edit_variants"
    ACTIONS = frozenset({ACTION})

    def __init__(self, screen: AreaScreen, written: Callable[[], object]) -> None:
        self.screen = screen
        self.written = written

    @classmethod
    def bindings(cls) -> list[Binding]:
        return [
            Binding("V", cls.ACTION, "Variants", id="detail.variants",
                    tooltip="Edit the variants of one environment (shows the request and a"
                    " preview first; production asks)"),
        ]  # fmt: skip

    def edit(self, project: str, feature: Feature) -> None:
        envs = list(feature.environments or [])
        if feature.is_archived or not envs:
            said = f"{feature.name} has no environment whose variants could be set."
            self.screen.flagtui.notify(said, severity="warning")
            return

        if all(e.variants == [] or (e.variants is None and e.variant_count == 0) for e in envs):
            self._none_anywhere(feature)
            return

        def counted(env: FeatureEnvironment) -> str:
            n = len(env.variants or []) or env.variant_count or 0
            return f"{n} variant{'' if n == 1 else 's'}"

        labels = [environment_label(e, counted(e)) for e in envs]
        title = f"Edit the variants of {feature.name} in which environment?"

        def picked(index: int) -> None:
            if not self.screen.still_sending(ROLLOUT_GROUP):
                self.screen.run_worker(
                    self._open(project, feature, envs[index]),
                    group=ROLLOUT_GROUP, exclusive=True, exit_on_error=False,
                )  # fmt: skip

        RolloutKeys(self.screen, self.written)._pick(title, labels, picked)

    def _none_anywhere(self, feature: Feature) -> None:
        said = (
            f"Nothing sent: {feature.name} has no environment variants, and Unleash changes"
            " them only on a flag that has some already (it deprecated them for strategy"
            " variants). Give a strategy its variants: S edits one, N adds one."
        )
        self.screen.flagtui.notify(said, severity="warning", timeout=10)

    async def _open(self, project: str, feature: Feature, env: FeatureEnvironment) -> None:
        # Here, not at the top: it loads the SDK engine
        from flagtui.tui.screens.variant_form import VariantFormScreen  # it imports this module

        rollouts = self.screen.flagtui.client.rollouts
        catalog = await rollouts.catalog()
        stored = await rollouts.variants(project, feature.name, env.name)
        others = [e.name for e in feature.environments or [] if e.name != env.name]
        if not stored and not any(
            await asyncio.gather(*(rollouts.variants(project, feature.name, o) for o in others))
        ):  # the record did not say (8.x lists no variants per environment): read, then said
            self._none_anywhere(feature)
            return

        def closed(sent: bool | None) -> None:
            if sent:
                self.written()

        form = VariantFormScreen(project, feature, env, stored, catalog)
        self.screen.app.push_screen(form, closed)
