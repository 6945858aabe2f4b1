"""Stop the bleeding: disable (or enable again) an integration from a screen that lists
integrations or their failures. The confirmation names the integration and its new state; on a
read-only profile the key is hidden and refused before any request (`WRITE_ACTIONS`); one
switch at a time; the screen reads again afterwards, whatever the answer."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.binding import Binding

from flagtui.triage.records import IntegrationRef
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.confirm import ConfirmModal

SWITCH = "integration-switch"  # the write's worker group


def switch_binding(area: str) -> Binding:
    return Binding(
        "x",
        "toggle_integration",
        "On/off",
        id=f"{area}.toggle-integration",
        tooltip="Disable the highlighted row's integration, or enable it again (asks first)",
    )


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


class IntegrationSwitchScreen(AreaScreen):
    """A screen that shows integrations: `switch_target()` says which one the highlighted row
    is, `reload()` reads the screen again."""

    WRITE_ACTIONS: ClassVar[frozenset[str]] = frozenset({"toggle_integration"})

    def switch_target(self) -> IntegrationRef | None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def action_toggle_integration(self) -> None:
        """Disable or enable the highlighted integration, after a confirmation."""
        ref = self.switch_target()
        if ref is None:
            return
        if ref.deleted:
            self.flagtui.notify(f"{ref.label} no longer exists on the server.", severity="warning")
            return
        enable = not ref.enabled
        title, body = switch_question(ref, enable)

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending(SWITCH):
                self.switch_integration(ref, enable)

        label = "Enable" if enable else "Disable"
        self.app.push_screen(ConfirmModal(title, body, confirm_label=label), answered)

    @work(exclusive=True, group=SWITCH, exit_on_error=False)
    async def switch_integration(self, ref: IntegrationRef, enable: bool) -> None:
        addon = await self.flagtui.client.set_addon_enabled(ref.id, enable)
        self.flagtui.notify(f"{ref.label} {'enabled' if addon.enabled else 'disabled'}", timeout=4)
        self.reload()

    def io_failed(self, group: str, error: BaseException) -> None:
        super().io_failed(group, error)
        if group == SWITCH:  # refused or unknown: show what the server holds now
            self.reload()
