"""Switch a flag on or off in one environment, from any screen that shows flags (the features
list and a feature's detail): which environment (a picker when the flag has several), a
confirmation for environments of type production (saying who gets the flag before and after,
with the SDKs' engine), one write at a time, then the screen reads the flag again. Elsewhere
no question is asked (the commonest key stays one key): a feature's detail says under each
environment what `t` would do there, and the toast after the switch says those numbers again
(the production question's numbers after a production switch).

A part the screen holds, not a base class: the screen puts `EnvironmentToggle.binding(...)` in
its BINDINGS and `EnvironmentToggle.ACTION` in its WRITE_ACTIONS, and its
`action_toggle_environment` calls `toggle(project, feature)`. Read-only profiles never get
here: the action is a write action (hidden, and its key says why nothing happens); the client
refuses too, before any request."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding

from flagtui.api.errors import FlagtuiError
from flagtui.api.models import Feature, FeatureEnvironment, Segment
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.format import clean
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.share_text import (
    share_of,
    share_text,
    switch_defaults,
    switch_line,
    switch_numbers,
    switch_shares,
    switched_with,
)
from flagtui.words import is_production

if TYPE_CHECKING:
    from flagtui.preview import PreviewError
    from flagtui.preview.share import ShareChange

TOGGLE_GROUP = "env-toggle"  # the write's worker group
PREVIEW_GROUP = "env-toggle-preview"  # the reads and the evaluation before the question
COUNT_GROUP = "env-toggle-count"  # what `t` would do in each environment of the record shown


def on_off(enabled: bool | None) -> str:
    return "on" if enabled else "off"


def environment_label(
    env: FeatureEnvironment, share: ShareChange | PreviewError | None = None
) -> str:
    """A picker line: the environment, its type, its state and what choosing it does (who gets
    the flag before → after, where counted)."""
    kind = f" ({env.type})" if env.type else ""
    said = f"{env.name}{kind} · {on_off(env.enabled)} → switch {on_off(not env.enabled)}"
    counted = switch_numbers(share)
    return f"{said} · {counted}" if counted else said


class EnvironmentToggle:
    """`t` on `screen`; `switched()` runs once the flag is switched (the screen reads the flag
    again: that read's failure is the read's, not the write's). A screen that shows a full
    record has `count` say what `t` would do in each of its environments."""

    ACTION = "toggle_environment"

    def __init__(self, screen: AreaScreen, switched: Callable[[], object]) -> None:
        self.screen = screen
        self.switched = switched
        # who gets the flag before and after a switch, per environment, of the record counted
        self.counted: tuple[Feature, Mapping[str, ShareChange | PreviewError]] | None = None

    @classmethod
    def binding(cls, binding_id: str) -> Binding:
        return Binding(
            "t",
            cls.ACTION,
            "Toggle",
            id=binding_id,
            tooltip="Switch the flag on or off in one environment (production asks first)",
        )

    @property
    def flagtui(self) -> FlagtuiContext:
        return self.screen.flagtui

    def count(
        self,
        project: str,
        feature: Feature,
        segments: Sequence[Segment],
        said: Callable[[Mapping[str, str]], object],
    ) -> None:
        """Who gets `feature` in each environment now and once switched, from the record and
        segments shown (the flags it depends on are read, only when it has any), handed to
        `said` as one line per environment; a switch of that record says them again."""
        self.screen.run_worker(
            self._count(project, feature, segments, said),
            group=COUNT_GROUP, exclusive=True, exit_on_error=False,
        )  # fmt: skip

    async def _count(
        self,
        project: str,
        feature: Feature,
        segments: Sequence[Segment],
        said: Callable[[Mapping[str, str]], object],
    ) -> None:
        get = self.flagtui.client.features.get
        try:
            related = await asyncio.gather(*(get(project, d.feature)
                                             for d in feature.dependencies or []))  # fmt: skip
        except FlagtuiError as exc:
            line = f"who gets it if switched (t): not available: {clean(str(exc))}"
            said({e.name: line for e in feature.environments or []})
            return
        defaults = await switch_defaults(self.flagtui.client, project)
        shares = await switch_shares(feature, segments, related, defaults)
        self.counted = (feature, shares)
        said({env: switch_line(share) for env, share in shares.items()})

    def _shown(self, feature: Feature, environment: str) -> ShareChange | PreviewError | None:
        if self.counted is None or self.counted[0] != feature:
            return None  # not counted, or counted for a record that differs from this one
        return self.counted[1].get(environment)

    def toggle(self, project: str, feature: Feature) -> None:
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
            self._confirm_switch(project, feature, envs[0])
            return

        def picked(index: int | None) -> None:
            if index is not None:
                self._confirm_switch(project, feature, envs[index])

        title = f"Switch {feature.name} on or off in which environment?"
        labels = [environment_label(env, self._shown(feature, env.name)) for env in envs]
        self.screen.app.push_screen(ChoicePicker(title, labels), picked)

    def _confirm_switch(self, project: str, feature: Feature, env: FeatureEnvironment) -> None:
        enabled, name = not env.enabled, feature.name
        if env.type != "production":
            self._send(project, name, env.name, enabled, self._shown(feature, env.name))
            return
        self.screen.run_worker(
            self._preview_then_ask(project, name, env, enabled),
            group=PREVIEW_GROUP, exclusive=True, exit_on_error=False,
        )  # fmt: skip

    async def _preview_then_ask(
        self, project: str, name: str, env: FeatureEnvironment, enabled: bool
    ) -> None:
        """The question says who gets the flag before and after: the flag read again and
        switched as the server will switch it, evaluated with the SDKs' engine."""
        defaults = await switch_defaults(self.flagtui.client, project)

        def turned(flag: Feature) -> dict[str, Any]:
            return dict(switched_with(flag, env.name, enabled, defaults))

        share = await share_of(self.flagtui.client, project, name, env.name, turned)

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(project, name, env.name, enabled, share)

        state = on_off(enabled)
        title = f"Switch {name} {state} in {env.name}?"
        said = f"{is_production(env.name)} {name} will be {state.upper()} there" + (
            " for every user its strategies match." if enabled else " for everyone."
        )
        body = Text.assemble(said, "\n\n", share_text(share))
        confirm = ConfirmModal(title, body, confirm_label=f"Switch {state}")
        self.screen.app.push_screen(confirm, answered)

    def _send(
        self,
        project: str,
        name: str,
        environment: str,
        enabled: bool,
        share: ShareChange | PreviewError | None,
    ) -> None:
        if not self.screen.still_sending(TOGGLE_GROUP):
            self.screen.run_worker(
                self.switch_environment(project, name, environment, enabled, share),
                group=TOGGLE_GROUP,
                exclusive=True,
                exit_on_error=False,
            )

    async def switch_environment(
        self,
        project: str,
        name: str,
        environment: str,
        enabled: bool,
        share: ShareChange | PreviewError | None = None,
    ) -> None:
        """`share`: who gets it before and after, as previewed (the toast says it again)."""
        client = self.flagtui.client
        await client.features.set_environment_enabled(project, name, environment, enabled)
        said = f"{name} switched {on_off(enabled)} in {environment}"
        counted = switch_numbers(share)
        counted = f"; who gets it: {counted} synthetic userIds" if counted else ""
        self.flagtui.notify(said + counted)
        self.switched()
