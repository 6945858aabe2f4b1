"""One audit event in full: who, what, where, and what changed (the text: details.event_text);
`o` opens the flag it names."""

from __future__ import annotations

from typing import ClassVar

from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from flagtui.api.models import EventRecord
from flagtui.tui.details import event_text
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.jump_flag import open_flag_of_event
from flagtui.tui.widgets.text import PlainStatic


class EventDetailScreen(AreaScreen):
    AREA = "events"
    scroller = getters.query_one("#detail", VerticalScroll)
    record = getters.query_one("#event", PlainStatic)
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="event.back", tooltip="Back to the list"),
        Binding("o", "open_flag", "Open flag", id="event.flag",
                tooltip="The detail of the flag the event names"),
        Binding("y", "copy", "Copy", id="event.copy", tooltip="Copy the event's id"),
    ]  # fmt: skip

    def __init__(self, event: EventRecord) -> None:
        super().__init__()
        self.event = event

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            yield PlainStatic(event_text(self.event), id="event")

    def on_mount(self) -> None:
        self.scroller.focus()

    def redraw_times(self) -> None:
        self.record.update(event_text(self.event))

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(str(self.event.id))
        self.notify(f"Copied event id {self.event.id}", timeout=3)

    def action_open_flag(self) -> None:
        open_flag_of_event(self, self.event, "This event")
