"""The question before a promotion, from the drift view's two sides: which way (the left side's
flags made the right's, or the other way), the project (empty: every project), the project
the flags land in on the target (empty: each its own), and whether the target's flags the
source lacks are archived (prune: off unless ticked). `ModalScreen[PromoteChoice | None]`:
None when cancelled. Nothing is read or sent here: the plan comes next."""

from __future__ import annotations

from dataclasses import dataclass

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, RadioButton, RadioSet

from flagtui.tui.format import safe
from flagtui.tui.widgets.text import PlainLabel, PlainStatic


@dataclass(frozen=True)
class Sides:
    """What the drift view compared: two profiles, or two environments of this profile."""

    kind: str  # "profiles" or "environments"
    left: str
    right: str
    project: str | None


@dataclass(frozen=True)
class PromoteChoice:
    source: str
    target: str
    project: str | None
    rewrite_project: str | None
    prune: bool


class PromoteForm(ModalScreen[PromoteChoice | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="promote-form.cancel",
                tooltip="Close: nothing is read or sent"),
    ]  # fmt: skip

    direction = getters.query_one("#promote-direction", RadioSet)
    project_input = getters.query_one("#promote-project", Input)
    rewrite_input = getters.query_one("#promote-rewrite", Input)
    prune_box = getters.query_one("#promote-prune", Checkbox)

    def __init__(self, sides: Sides) -> None:
        super().__init__(classes="confirm")
        self.sides = sides

    def compose(self) -> ComposeResult:
        s = self.sides
        with Vertical(classes="dialog"):
            yield PlainLabel(f"Promote between {s.kind} {s.left} and {s.right}",
                             classes="dialog-title")  # fmt: skip
            yield PlainStatic(
                "One side's flags made the other's: a plan first, flag by flag; nothing is"
                " sent before you confirm it.",
                classes="dialog-body",
            )
            with RadioSet(id="promote-direction"):
                yield RadioButton(safe(f"{s.left} → {s.right}"), value=True, id="left-to-right")
                yield RadioButton(safe(f"{s.right} → {s.left}"), id="right-to-left")
            yield PlainLabel("Project (empty: every project)")
            yield Input(s.project or "", placeholder="project", id="promote-project")
            yield PlainLabel("Land the flags in this project of the target (empty: each its own)")
            yield Input(placeholder="rewrite project", id="promote-rewrite")
            yield Checkbox("Prune: archive the target's flags the source lacks",
                           id="promote-prune")  # fmt: skip
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Plan", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.direction.focus()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#confirm")
    @on(Input.Submitted)
    def _plan(self) -> None:
        s = self.sides
        forward = self.direction.pressed_button is None or (
            self.direction.pressed_button.id == "left-to-right"
        )
        source, target = (s.left, s.right) if forward else (s.right, s.left)
        self.dismiss(
            PromoteChoice(
                source,
                target,
                self.project_input.value.strip() or None,
                self.rewrite_input.value.strip() or None,
                self.prune_box.value,
            )
        )
