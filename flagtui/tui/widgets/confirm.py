"""Confirmation dialogs: `ModalScreen[bool]`, Cancel focused by default."""

from __future__ import annotations

from rich.console import RenderableType
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input

from flagtui.tui.format import clean
from flagtui.tui.widgets.text import PlainLabel, PlainStatic


class ConfirmModal(ModalScreen[bool]):
    """Ask before a change. Enter on the focused button decides; Escape cancels. The title and
    body name flags, projects and environments: they are shown as data (see widgets/text.py)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="confirm.cancel", tooltip="Close without change")
    ]
    FOCUS = "#cancel"
    LOCKED = False

    confirm_button = getters.query_one("#confirm", Button)

    def __init__(
        self, title: str, body: RenderableType = "", *, confirm_label: str = "Confirm"
    ) -> None:
        super().__init__(classes="confirm")
        self.title_text = title
        self.body = body
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            if self.body:
                yield PlainStatic(self.body, classes="dialog-body")
            yield from self.compose_extra()
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(
                    self.confirm_label, id="confirm", variant="error", disabled=self.LOCKED
                )

    def compose_extra(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.query_one(self.FOCUS).focus()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#confirm")
    def _confirm(self) -> None:
        self.dismiss(True)


class TypedConfirmModal(ConfirmModal):
    """For the riskiest changes: the confirm button works only once `name` is typed exactly."""

    FOCUS = "#typed"
    LOCKED = True

    def __init__(self, title: str, body: RenderableType, name: str, **kwargs: str) -> None:
        super().__init__(title, body, **kwargs)
        self.expected = name

    def compose_extra(self) -> ComposeResult:
        yield PlainLabel(f"Type {self.expected!r} to confirm:")
        yield Input(placeholder=clean(self.expected), id="typed")

    @on(Input.Changed, "#typed")
    def _typed(self, event: Input.Changed) -> None:
        self.confirm_button.disabled = event.value != self.expected

    @on(Input.Submitted, "#typed")
    def _submitted(self, event: Input.Submitted) -> None:
        if event.value == self.expected:
            self.dismiss(True)
