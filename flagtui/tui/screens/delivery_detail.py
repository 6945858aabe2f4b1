"""One integration delivery in full: the event that triggered it and what the integration
reported. Secrets in it are masked (flagtui/masking.py); `m` reveals them for that delivery. `c`
puts the triggering change (fields before → after, who, when) at the top, above any long
webhook body; `o` opens the flag it names."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from flagtui.api.models import IntegrationEvent
from flagtui.tui.details import delivery_text
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.jump_flag import open_flag_of_delivery
from flagtui.tui.widgets.text import PlainStatic


class DeliveryDetailScreen(AreaScreen):
    AREA = "integrations"
    scroller = getters.query_one("#detail", VerticalScroll)
    record = getters.query_one("#delivery", PlainStatic)
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="delivery.back", tooltip="Back to the list"),
        Binding("y", "copy", "Copy", id="delivery.copy", tooltip="Copy the delivery's id"),
        Binding("c", "cause", "Cause", id="delivery.cause",
                tooltip="The triggering change at the top: fields before → after, who, when"),
        Binding("o", "open_flag", "Open flag", id="delivery.flag",
                tooltip="The detail of the flag the triggering event names"),
        Binding("m", "reveal", "Reveal URLs", id="delivery.reveal",
                tooltip="Show this delivery's secrets in full, or masked again"),
    ]  # fmt: skip

    def __init__(self, delivery: IntegrationEvent, integration: str) -> None:
        super().__init__()
        self.delivery = delivery
        self.integration = integration
        self.revealed = False  # for this delivery, while it is on screen
        self.cause_first = False

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            yield PlainStatic(self._text(), id="delivery")

    def _text(self) -> Text:
        return delivery_text(
            self.delivery, self.integration, reveal=self.revealed, cause=self.cause_first
        )

    def on_mount(self) -> None:
        self.scroller.focus()

    def redraw_times(self) -> None:
        self.record.update(self._text())

    def action_reveal(self) -> None:
        self.revealed = not self.revealed
        self.record.update(self._text())

    def action_cause(self) -> None:
        self.cause_first = not self.cause_first
        self.record.update(self._text())
        self.scroller.scroll_home(animate=False)

    def action_open_flag(self) -> None:
        open_flag_of_delivery(self, self.delivery)

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.delivery.id)
        self.notify(f"Copied delivery id {self.delivery.id}", timeout=3)
