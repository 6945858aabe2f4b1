"""The connection to the server: connecting (again, on `action_connect`), the connect screen
when it fails, and the header's words for it: the server's label, and a note while the client's
health record says the server stopped answering (and for a while once it is back)."""

from __future__ import annotations

from datetime import UTC, datetime

from textual import on, work
from textual.message import Message
from textual.reactive import reactive
from textual.worker import Worker, WorkerState

from flagtui.tui.app.modes import CONNECT_MODE, AreaModes
from flagtui.tui.areas import DEFAULT_AREA
from flagtui.tui.format import CONNECTING, health_note
from flagtui.tui.screens.base import describe_error
from flagtui.tui.screens.connect import ConnectScreen

BACK_NOTE_S = 60.0  # how long the header says the server is answering again


class ServerConnection(AreaModes):
    server_label: reactive[str] = reactive(CONNECTING)
    connection_note: reactive[str] = reactive("")
    """Said in the header when the server stopped answering, and for a while once it is back."""

    class HealthChanged(Message):
        """The client's health record changed (the server stopped or started answering)."""

    def __init__(self) -> None:
        super().__init__()
        self.connect_failure: str | None = None

    def _health_changed(self) -> None:
        """Called by the client, inside a request: the header is updated through a message."""
        self.post_message(self.HealthChanged())

    @on(HealthChanged)
    def _show_health(self) -> None:
        self.connection_note = health_note(self.client.health)
        if self.connection_note and not self.client.health.failing:
            self.set_timer(BACK_NOTE_S, self._forget_back_note)

    def _forget_back_note(self) -> None:  # unless the server failed again meanwhile
        back = self.client.health.back_at
        since = (datetime.now(UTC) - back).total_seconds() if back is not None else 0.0
        if not self.client.health.failing and since >= BACK_NOTE_S - 1:
            self.connection_note = ""

    def action_connect(self) -> None:
        self.server_label = CONNECTING
        self._connect()

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def _connect(self) -> None:
        server = await self.client.connect()
        self.server_label, self.connect_failure = server.label, None
        # Keys that depend on the server (Enterprise writes) are known only now: key bars redrawn.
        for screen in self.screen_stack:  # the screens under a modal too
            screen.refresh_bindings()
        if isinstance(self.screen, ConnectScreen):  # connected on a retry
            self.switch_area(self.area or DEFAULT_AREA)
        self._redraw_failures()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.server_label = "not connected"
            self.show_connect_failure(describe_error(event.worker.error))

    def show_connect_failure(self, message: str) -> None:
        """Back to the connect screen; the areas are built afresh once connected. The failures
        view on a delivery archive stays: the archive answers, and it says the server is down."""
        self.connect_failure = message
        if self.current_mode == "failures" and self._failures.is_archive:
            self._redraw_failures()
            return
        if self.current_mode != CONNECT_MODE:
            self.switch_mode(CONNECT_MODE)
            self._fresh_areas()
        while not isinstance(self.screen, ConnectScreen):  # a screen opened before it failed
            self.pop_screen()
        self.screen.show_failure(message)
