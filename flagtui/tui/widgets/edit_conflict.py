"""The question when an edit was overtaken: someone changed the object since the form or plan
was made from it, nothing was sent. Reload (the form again on the server's state), send mine
anyway (in production only once the name is typed), or cancel (Escape, focused)."""

from __future__ import annotations

from typing import Literal

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input

from flagtui.tui.format import clean
from flagtui.tui.widgets.text import PlainLabel, PlainStatic

Choice = Literal["reload", "anyway"]


class EditConflictModal(ModalScreen[Choice | None]):
    """Dismissed with "reload", "anyway" or None (cancelled). `typed`: the name to type before
    "send mine anyway" works (a production environment), or None."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="conflict.cancel", tooltip="Close, send nothing")
    ]

    anyway_button = getters.query_one("#anyway", Button)

    def __init__(self, title: str, lines: list[str], typed: str | None = None) -> None:
        super().__init__(classes="confirm review")
        self.title_text, self.lines, self.typed = title, lines, typed

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            yield PlainStatic("\n".join(self.lines), classes="dialog-body")
            if self.typed is not None:
                yield PlainLabel(f"To send yours anyway, type {self.typed!r}:")
                yield Input(placeholder=clean(self.typed), id="typed")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Reload", id="reload", variant="primary")
                yield Button(
                    "Send mine anyway", id="anyway", variant="error", disabled=bool(self.typed)
                )

    def on_mount(self) -> None:
        self.query_one("#cancel").focus()

    @on(Input.Changed, "#typed")
    def _typed(self, event: Input.Changed) -> None:
        self.anyway_button.disabled = event.value != self.typed

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#reload")
    def _reload(self) -> None:
        self.dismiss("reload")

    @on(Button.Pressed, "#anyway")
    def _anyway(self) -> None:
        self.dismiss("anyway")
