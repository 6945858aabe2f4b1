"""A dialog of outcomes under a title (what a bulk change or a promotion did), closed with its
button or with Escape (each subclass names that binding, for its own key reference)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button

from flagtui.tui.widgets.text import PlainLabel, PlainStatic


def counted_outcomes(outcomes: Iterable[str]) -> str:
    """ "2 done, 1 refused": each outcome and how often, in the order first met."""
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome] = counts.get(outcome, 0) + 1
    return ", ".join(f"{n} {outcome}" for outcome, n in counts.items())


class ResultDialog(ModalScreen[None]):
    def __init__(self, title: str, body: Text) -> None:
        super().__init__(classes="form review")
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            yield PlainStatic(self.body, classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close", id="close")

    def on_mount(self) -> None:
        self.query_one("#close").focus()

    @on(Button.Pressed, "#close")
    def action_close_result(self) -> None:
        self.dismiss(None)
