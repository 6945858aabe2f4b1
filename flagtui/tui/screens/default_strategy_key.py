"""`I` in the project environments area: the default strategy of the selected environment, the
gradual rollout a flag of the project gets when it is switched on there with no strategy of its
own (`client.default_strategies` says what Unleash does with it). Asked as a percentage; the
request and what it changes (no flag now) are shown first; an environment of type production
asks for its name typed."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.binding import Binding

from flagtui.api.errors import FlagtuiError, NothingToSend
from flagtui.api.models import ProjectEnvironment, Strategy
from flagtui.rollout_words import rollout_text
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.line_prompt import LinePrompt
from flagtui.tui.widgets.request_text import shown_requests

GROUP = "env-default-strategy"
EFFECT = (
    "No flag changes now. A flag switched on in {env} with no enabled strategy gets this one"
    " (its group: the flag's name) instead of Unleash's own 100 %; a flag created gets none."
)


def default_text(env: ProjectEnvironment) -> str:
    """The environment's default strategy in words (`—`: Unleash's own, 100 %)."""
    return rollout_text(env.default_strategy) if env.default_strategy is not None else "—"


class DefaultStrategyKey:
    ACTION = "default_strategy"

    def __init__(self, screen: AreaScreen, written: Callable[[], object]) -> None:
        self.screen = screen
        self.written = written

    @classmethod
    def binding(cls) -> Binding:
        return Binding("I", cls.ACTION, "Default strategy", id="envs.default-strategy",
                       tooltip="The gradual rollout a flag switched on here with no strategy gets"
                       " (changes no flag now; the request shown first)")  # fmt: skip

    def ask(self, project: str, env: ProjectEnvironment) -> None:
        title = f"Default strategy of {project} in {env.name} (now: {default_text(env)})"
        hint = "the gradual rollout's percentage, 0 to 100"

        def typed(line: str | None) -> None:
            if line and line.strip() and not self.screen.still_sending(GROUP):
                self.screen.run_worker(self._plan(project, env, line), group=GROUP,
                                       exclusive=True, exit_on_error=False)  # fmt: skip

        self.screen.app.push_screen(LinePrompt(title, hint), typed)

    async def _plan(self, project: str, env: ProjectEnvironment, line: str) -> None:
        # Here, not at the top: the rules are the client's
        from flagtui.api.rollout_rules import rollout

        client = self.screen.flagtui.client
        try:
            percent = rollout(line.strip(), where="rollout")
            parameters = {"rollout": str(percent), "stickiness": "default", "groupId": ""}
            wanted = Strategy(name="flexibleRollout", parameters=parameters, constraints=[])
            plan = await client.default_strategies.plan_set(project, env.name, wanted)
        except NothingToSend as same:
            self.screen.flagtui.notify(f"Nothing sent: {same}", severity="warning")
            return
        except FlagtuiError as exc:
            self.screen.flagtui.notify(f"Not sent: {exc}", severity="error", timeout=8)
            return
        body = Text(EFFECT.format(env=env.name) + "\n")
        body.append_text(shown_requests([plan.write]))

        async def send() -> None:
            stored = await client.default_strategies.send(plan)
            said = f"default strategy of {project} in {env.name}: {rollout_text(stored)}"
            self.screen.flagtui.notify(said)
            self.written()

        def answered(yes: bool | None) -> None:
            if yes and not self.screen.still_sending(GROUP):
                self.screen.run_worker(send(), group=GROUP, exclusive=True, exit_on_error=False)

        title = f"Set the default strategy of {project} in {env.name}?"
        if env.type == "production":
            modal: ConfirmModal = TypedConfirmModal(title, body, env.name, confirm_label="Set")
        else:
            modal = ConfirmModal(title, body, confirm_label="Set")
        self.screen.app.push_screen(modal, answered)
