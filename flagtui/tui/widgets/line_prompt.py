"""One line asked for in a dialog (`ModalScreen[str | None]`): Enter gives it, Escape None."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from flagtui.tui.format import clean
from flagtui.tui.widgets.text import PlainLabel


class LinePrompt(ModalScreen[str | None]):
    """One line of input: Enter gives it, Escape gives None."""

    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Cancel", id="prompt.cancel", tooltip="Close, send nothing")
    ]
    field = getters.query_one("#line", Input)

    def __init__(self, title: str, hint: str, value: str = "") -> None:
        super().__init__(classes="confirm")
        self.title_text, self.hint, self.value = title, hint, value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            yield PlainLabel(self.hint)
            yield Input(value=clean(self.value), id="line")

    def on_mount(self) -> None:
        self.field.focus()

    @on(Input.Submitted, "#line")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
