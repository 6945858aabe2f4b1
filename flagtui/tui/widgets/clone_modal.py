"""The question before cloning a flag: the new name (URL-friendly, checked here as the client
checks it, and by the server when sent) and whether the clone's gradual rollouts get their own
groupId. `ModalScreen[tuple[str, bool] | None]`: (name, replace the groupId), None when
cancelled. A refused name keeps what was typed."""

from __future__ import annotations

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input

from flagtui.api import validation
from flagtui.api.errors import InvalidArgument
from flagtui.tui.widgets.text import PlainLabel, PlainStatic


class CloneModal(ModalScreen[tuple[str, bool] | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="clone.cancel", tooltip="Close without change")
    ]

    name_input = getters.query_one("#clone-name", Input)
    group = getters.query_one("#clone-group", Checkbox)
    said = getters.query_one("#clone-said", PlainStatic)

    def __init__(self, source: str) -> None:
        super().__init__(classes="confirm")
        self.source = source

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(f"Clone {self.source}", classes="dialog-title")
            yield PlainStatic(
                "A new flag with its type, description, and each environment's strategies and"
                " variants; every environment starts off. Name of the clone:",
                classes="dialog-body",
            )
            yield Input(value=f"{self.source}-copy", id="clone-name")
            yield Checkbox("Its gradual rollouts group users by its own name", id="clone-group")
            yield PlainStatic("", id="clone-said")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Clone", id="confirm", variant="warning")

    def on_mount(self) -> None:
        self.name_input.focus()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#confirm")
    @on(Input.Submitted, "#clone-name")
    def _confirm(self) -> None:
        name = self.name_input.value
        try:
            validation.flag_name(name, field="name")
        except InvalidArgument as exc:
            self.said.update(f"Not sent: {exc}")
            return
        if name == self.source:
            self.said.update("Not sent: the clone needs a name of its own")
            return
        self.dismiss((name, self.group.value))
