"""A small modal list to pick one item from (an environment to switch, one to link):
`ModalScreen[int | None]` answering the index of the chosen item, None when cancelled.
Labels name environments, a server's words: they are shown as data (`safe()`)."""

from __future__ import annotations

from collections.abc import Sequence

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList

from flagtui.tui.format import safe
from flagtui.tui.widgets.text import PlainLabel, PlainStatic


class ChoicePicker(ModalScreen[int | None]):
    """Enter picks the highlighted line; Escape closes without a choice."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel", tooltip="Close without change")
    ]

    options = getters.query_one(OptionList)

    def __init__(self, title: str, labels: Sequence[str], *, note: str = "") -> None:
        super().__init__(classes="form picker")
        self.title_text = title
        self.labels = list(labels)
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            yield OptionList(*(safe(label) for label in self.labels))
            note = f"{self.note}\n" if self.note else ""
            yield PlainStatic(f"{note}⏎ choose · esc cancel", classes="dialog-body")

    def on_mount(self) -> None:
        self.options.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)
