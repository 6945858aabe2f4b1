"""The base of the screens that switch a flag on or off in one environment (the features list
and a feature's detail): which environment (a picker when the flag has several), a confirmation
for environments of type production, one write at a time, then the screen reads the flag again.

Read-only profiles never get here: `toggle_environment` is a write action (hidden, and its key
says why nothing happens); the client refuses too, before any request."""

from __future__ import annotations

from textual import work

from flagtui.api.models import Feature, FeatureEnvironment
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal

TOGGLE_GROUP = "env-toggle"
TOGGLE_HELP = "Switch the flag on or off in one environment (production asks first)"


def on_off(enabled: bool | None) -> str:
    return "on" if enabled else "off"


def environment_label(env: FeatureEnvironment) -> str:
    """A picker line: the environment, its type, its state and what choosing it does."""
    kind = f" ({env.type})" if env.type else ""
    return f"{env.name}{kind} · {on_off(env.enabled)} → switch {on_off(not env.enabled)}"


class EnvironmentToggleScreen(AreaScreen):
    def toggle_environment(self, project: str, feature: Feature) -> None:
        """Ask which environment (unless the flag has one), confirm production, then send."""
        if feature.is_archived:
            self.flagtui.notify(
                f"{feature.name} is archived: revive it before switching it on or off.",
                severity="warning",
            )
            return
        envs = list(feature.environments or [])
        if not envs:
            self.flagtui.notify(
                f"{feature.name} has no environment in project {project}: link one first"
                " (Environments area).",
                severity="warning",
            )
            return
        if len(envs) == 1:
            self._confirm_switch(project, feature.name, envs[0])
            return

        def picked(index: int | None) -> None:
            if index is not None:
                self._confirm_switch(project, feature.name, envs[index])

        title = f"Switch {feature.name} on or off in which environment?"
        labels = [environment_label(env) for env in envs]
        self.app.push_screen(ChoicePicker(title, labels), picked)

    def _confirm_switch(self, project: str, name: str, env: FeatureEnvironment) -> None:
        enabled = not env.enabled
        if env.type != "production":
            self._send(project, name, env.name, enabled)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(project, name, env.name, enabled)

        state = on_off(enabled)
        title = f"Switch {name} {state} in {env.name}?"
        body = f"{env.name} is a production environment. {name} will be {state.upper()} there" + (
            " for every user its strategies match." if enabled else " for everyone."
        )
        confirm = ConfirmModal(title, body, confirm_label=f"Switch {state}")
        self.app.push_screen(confirm, answered)

    def _send(self, project: str, name: str, environment: str, enabled: bool) -> None:
        if not self.still_sending(TOGGLE_GROUP):
            self.switch_environment(project, name, environment, enabled)

    @work(exclusive=True, group=TOGGLE_GROUP, exit_on_error=False)
    async def switch_environment(
        self, project: str, name: str, environment: str, enabled: bool
    ) -> None:
        client = self.flagtui.client
        await client.set_feature_environment_enabled(project, name, environment, enabled)
        self.flagtui.notify(f"{name} switched {on_off(enabled)} in {environment}")
        self.environment_switched(name)

    def environment_switched(self, name: str) -> None:
        """The switch is done: read the flag again (its failure is the read's, not the write's)."""
