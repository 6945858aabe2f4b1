"""Confirmation dialogs: `ModalScreen[bool]`. What Enter does at once follows what the action
does: one that adds or saves (create, add, update, send, grant, switch on, enable, revive…)
has its own button focused, so Enter does what was asked for; any other (delete, archive,
remove, revoke, discard, disable, roll back, switch off) keeps Cancel focused, as k9s does, so
a second Enter typed by habit changes nothing: Tab, then Enter, does it."""

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

# The first words of the labels of the actions that add or save: their button is focused.
ADDS_OR_SAVES = (
    "Add", "Create", "Enable", "Grant", "Mark", "Reorder", "Revive", "Save", "Send",
    "Switch on", "Uncomplete", "Update",
)  # fmt: skip


def adds_or_saves(label: str) -> bool:
    """Whether a confirmation labelled `label` adds or saves (any other keeps Cancel focused:
    a label this list does not know is asked as a destructive one)."""
    return any(label == verb or label.startswith(f"{verb} ") for verb in ADDS_OR_SAVES)


class ConfirmModal(ModalScreen[bool]):
    """Ask before a change. Enter on the focused button decides (the action's own when it adds
    or saves, else Cancel: `adds_or_saves`); Escape cancels. The title and body name flags,
    projects and environments: they are shown as data (see widgets/text.py)."""

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
        self.destructive = not adds_or_saves(confirm_label)
        if self.FOCUS == "#cancel" and not self.destructive:
            self.FOCUS = "#confirm"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            if self.body:
                yield PlainStatic(self.body, classes="dialog-body")
            yield from self.compose_extra()
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(
                    self.confirm_label,
                    id="confirm",
                    variant="error" if self.destructive else "primary",
                    disabled=self.LOCKED,
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
