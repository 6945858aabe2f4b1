"""The connect screen: shown while the server's version and edition are read before any area
exists, and whenever connecting fails (with the reason and `r` to retry)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.text import PlainStatic


class ConnectScreen(AreaScreen):
    BINDINGS = [
        Binding("r", "app.connect", "Retry", id="connect.retry", tooltip="Connect again"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.failure: str | None = None

    def compose_body(self) -> ComposeResult:
        yield PlainStatic(self._status(), id="connect-status")

    def _status(self) -> str:
        if self.failure is None:
            return f"Connecting to {self.flagtui.profile.url} …"
        return f"Could not connect.\n\n{self.failure}\n\nPress r to retry, q to quit."

    def show_failure(self, message: str) -> None:
        """Also before the screen is composed: it is shown as soon as it is."""
        self.failure = message
        for status in self.query("#connect-status").results(PlainStatic):
            status.update(self._status())
