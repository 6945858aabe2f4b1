"""The first screen: shown while the server's version and edition are read (or if that fails)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from flagtui.tui.screens.base import AreaScreen


class ConnectScreen(AreaScreen):
    BINDINGS = [
        Binding("r", "app.connect", "Retry", id="connect.retry", tooltip="Connect again"),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static(f"Connecting to {self.flagtui.profile.url} …", id="connect-status")

    def show_failure(self, message: str) -> None:
        self.query_one("#connect-status", Static).update(
            f"Could not connect.\n\n{message}\n\nPress r to retry, q to quit."
        )
