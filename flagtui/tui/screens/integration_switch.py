"""Stop the bleeding: disable (or enable again) an integration from a screen that lists
integrations or their failures. The confirmation names the integration and its new state; on a
read-only profile the key is hidden and refused before any request (`WRITE_ACTIONS`); one
switch at a time; the screen reads again afterwards, whatever the answer.

A part any screen holds, not a base class: the screen puts `IntegrationSwitch.binding(...)` in
its BINDINGS and `IntegrationSwitch.ACTION` in its WRITE_ACTIONS, and its
`action_toggle_integration` calls `ask()`. The write is a worker of the screen, so its failure
reaches the screen's one error handler (`base.py`) as any other."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding

from flagtui.api.errors import NotConnected
from flagtui.triage.records import IntegrationRef
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.confirm import ConfirmModal

SWITCH = "integration-switch"  # the write's worker group


def switch_question(ref: IntegrationRef, enable: bool) -> tuple[str, str]:
    """The confirmation's title and body: the integration and what it will do from now on."""
    if enable:
        return f"Enable {ref.label}?", (
            f"{ref.label} will be enabled: Unleash sends it the events it subscribes to again"
            f" (not the ones that happened while it was disabled). Its id: {ref.id}."
        )
    return f"Disable {ref.label}?", (
        f"{ref.label} will be disabled: Unleash stops sending it events until it is enabled"
        " again. Its configuration and the deliveries the server still has are kept."
        f" Its id: {ref.id}."
    )


class IntegrationSwitch:
    """`x` on `screen`: `target()` says which integration the highlighted row is, `reload()`
    reads the screen again."""

    ACTION = "toggle_integration"

    def __init__(
        self,
        screen: AreaScreen,
        target: Callable[[], IntegrationRef | None],
        reload: Callable[[], object],
    ) -> None:
        self.screen = screen
        self.target = target
        self.reload = reload

    @classmethod
    def binding(cls, area: str) -> Binding:
        return Binding(
            "x",
            cls.ACTION,
            "On/off",
            id=f"{area}.toggle-integration",
            tooltip="Disable the highlighted row's integration, or enable it again (asks first)",
        )

    @property
    def flagtui(self) -> FlagtuiContext:
        return self.screen.flagtui

    def ask(self) -> None:
        """Disable or enable the highlighted integration, after a confirmation."""
        ref = self.target()
        if ref is None:
            return
        if ref.deleted:
            self.flagtui.notify(f"{ref.label} no longer exists on the server.", severity="warning")
            return
        enable = not ref.enabled
        title, body = switch_question(ref, enable)

        def answered(yes: bool | None) -> None:
            if yes and not self.screen.still_sending(SWITCH):
                self.screen.run_worker(
                    self.switch_integration(ref, enable),
                    group=SWITCH,
                    exclusive=True,
                    exit_on_error=False,
                )

        label = "Enable" if enable else "Disable"
        self.screen.app.push_screen(ConfirmModal(title, body, confirm_label=label), answered)

    async def switch_integration(self, ref: IntegrationRef, enable: bool) -> None:
        try:
            addon = await self.flagtui.client.integrations.set_enabled(ref.id, enable)
        except NotConnected:
            raise  # said on the connect screen: there is nothing to read
        except Exception:
            self.reload()  # refused or unknown: show what the server holds now
            raise  # and the screen's error handler says why
        self.flagtui.notify(f"{ref.label} {'enabled' if addon.enabled else 'disabled'}", timeout=4)
        self.reload()
