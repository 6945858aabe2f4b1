"""The connect screen: shown while the server's version and edition are read before any area
exists, and whenever connecting fails (with the reason and `r` to retry; and the failures
view's key when a delivery archive can answer without the server)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.text import PlainStatic


class ConnectScreen(AreaScreen):
    BINDINGS = [
        Binding("r", "reload", "Reload", id="connect.reload", tooltip="Connect again"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.failure: str | None = None

    def compose_body(self) -> ComposeResult:
        yield PlainStatic(self._status(), id="connect-status")

    def _status(self) -> str:
        if self.failure is None:
            return f"Connecting to {self.flagtui.profile.url} …"
        retry, switch = self.key_of("reload"), self.key_of("switch_profile")
        archive = ""
        if self.flagtui.failure_source().origin == "archive":  # it answers without the server
            failures = self.key_of("switch_area('failures')")
            archive = f"\nPress {failures} for the failures in the delivery archive."
        return (
            f"Could not connect.\n\n{self.failure}\n\n"
            f"Press {retry} to retry, {switch} to switch profile, q to quit.{archive}"
        )

    def key_of(self, action: str) -> str:
        """The key the action has now (a keymap may have changed it), as the key bar shows it."""
        for active in self.active_bindings.values():
            if active.binding.action == action:
                return self.app.get_key_display(active.binding)
        return action

    async def action_reload(self) -> None:
        await self.app.run_action("app.connect")

    def show_connecting(self) -> None:
        """The app switched profile: connecting to another server, under its header."""
        self.failure = None
        for header in self.query(FlagtuiHeader):
            header.show_context()
        for status in self.query("#connect-status").results(PlainStatic):
            status.update(self._status())

    def show_failure(self, message: str) -> None:
        """Also before the screen is composed: it is shown as soon as it is."""
        self.failure = message
        for status in self.query("#connect-status").results(PlainStatic):
            status.update(self._status())
