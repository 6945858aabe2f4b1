"""`Y` in a feature's detail: copy strategies to another environment, as the web UI's "Copy to
environment" does (one strategy add each in the target, after the ones there).

It asks the environment copied from (one with strategies; no question when one qualifies), the
one copied to (any other), and which strategies (all, or one, when there are several); reads
them again, checks them against the server's catalog (`client.flag_ops.plan_copy`) and shows the
requests with who gets the flag in the target before and after (the SDKs' engine), then sends.
A target of type production asks for its name to be typed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from flagtui.api.flag_ops import PartlyCopied
from flagtui.api.models import Feature, FeatureEnvironment
from flagtui.rollout_words import strategy_lines
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.share_text import share_of, share_text
from flagtui.words import counted, is_production

if TYPE_CHECKING:
    from flagtui.api.flag_ops import StrategyCopy

WRITE_GROUP = "feature-write"


def _label(env: FeatureEnvironment) -> str:
    n = len(env.strategies or [])
    kind = f" ({env.type})" if env.type else ""
    return f"{env.name}{kind} · {n} strateg{'y' if n == 1 else 'ies'}"


class StrategyCopyKey:
    def __init__(self, screen: AreaScreen, written: Callable[[], object]) -> None:
        self.screen = screen
        self.written = written

    def _pick(self, title: str, labels: Sequence[str], then: Callable[[int], object]) -> None:
        if len(labels) == 1:
            then(0)
            return

        def picked(index: int | None) -> None:
            if index is not None:
                then(index)

        self.screen.app.push_screen(ChoicePicker(title, list(labels)), picked)

    def _run(self, work: Any) -> None:
        if not self.screen.still_sending(WRITE_GROUP):
            self.screen.run_worker(work, group=WRITE_GROUP, exclusive=True, exit_on_error=False)

    def ask(self, project: str, flag: Feature) -> None:
        envs = list(flag.environments or [])
        sources = [e for e in envs if e.strategies]
        if not sources or len(envs) < 2:
            said = f"Nothing to copy: {flag.name} has no strategies, or only one environment."
            self.screen.flagtui.notify(said, severity="warning")
            return

        def from_picked(i: int) -> None:
            source = sources[i]
            targets = [e for e in envs if e.name != source.name]

            def to_picked(j: int) -> None:
                self._which(project, flag, source, targets[j])

            self._pick(f"Copy {source.name}'s strategies to which environment?",
                       [_label(e) for e in targets], to_picked)  # fmt: skip

        self._pick(f"Copy {flag.name}'s strategies from which environment?",
                   [_label(e) for e in sources], from_picked)  # fmt: skip

    def _which(
        self, project: str, flag: Feature, source: FeatureEnvironment, target: FeatureEnvironment
    ) -> None:
        strategies = list(source.strategies or [])
        if len(strategies) == 1:
            self._run(self._plan(project, flag.name, source.name, target, None))
            return
        labels = [f"All {len(strategies)} strategies, in their order"]
        labels += [f"{(s.id or '?')[:8]} · {strategy_lines(s, {})[0]}" for s in strategies]

        def picked(i: int) -> None:
            only = None if i == 0 else strategies[i - 1].id
            self._run(self._plan(project, flag.name, source.name, target, only))

        self._pick(f"Copy which strategies to {target.name}?", labels, picked)

    async def _plan(self, project: str, name: str, source: str, target: FeatureEnvironment,
                    only: str | None) -> None:  # fmt: skip
        # Here, not at the top: it loads the SDK engine
        from flagtui.preview import with_strategy

        client = self.screen.flagtui.client
        copy = await client.flag_ops.plan_copy(project, name, source, target.name, only)
        bodies = [plan.body for plan in copy.plans]

        def after(flag: Feature) -> dict[str, Any]:
            record: Any = flag
            for body in bodies:
                record = with_strategy(record, target.name, body)
            return dict(record)

        share = await share_of(client, project, name, target.name, after)
        said = (
            f"{counted(len(bodies), 'strategy', 'strategies')} of {name} in {source} added in"
            f" {target.name}, after the ones there (nothing of theirs replaced)."
        )
        if target.type == "production":
            said = f"{is_production(target.name)} {said}"
        body = Text.assemble(said, "\n\n", share_text(share), "\nSends:\n",
                             shown_requests(copy.plans))  # fmt: skip
        title = f"Copy strategies to {target.name}?"

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(self._copy(project, copy))

        modal = (
            TypedConfirmModal(title, body, target.name, confirm_label="Copy")
            if target.type == "production"
            else ConfirmModal(title, body, confirm_label="Copy")
        )
        self.screen.app.push_screen(modal, answered)

    async def _copy(self, project: str, copy: StrategyCopy) -> None:
        try:
            stored = await self.screen.flagtui.client.flag_ops.copy(project, copy)
        except PartlyCopied as partly:
            self.screen.flagtui.notify(str(partly), severity="warning")
            raise partly.cause from None
        finally:
            self.written()
        n = len(stored)
        self.screen.flagtui.notify(f"{n} strateg{'y' if n == 1 else 'ies'} copied to {copy.target}")
