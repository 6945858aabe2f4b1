"""`?` help: every key of the current screen and the app, built from the bindings themselves."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label


def binding_rows(screen: Screen[object]) -> list[tuple[str, str, str]]:
    """(key, description, tooltip) of the bindings active on `screen`, as a person reads them."""
    rows = []
    seen = set()
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description or (binding.action, binding.description) in seen:
            continue
        seen.add((binding.action, binding.description))
        shown = binding.key_display or screen.app.get_key_display(binding)
        rows.append((shown or key, binding.description, active.tooltip or binding.tooltip))
    return rows


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,question_mark,q", "dismiss", "Close", id="help.close", tooltip="Close help")
    ]

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__(classes="help")
        self.rows = binding_rows(screen)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Keys (Esc closes; ctrl+p: command palette)", classes="dialog-title")
            table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True)
            table.add_columns("Key", "Action", "What it does")
            table.add_rows(self.rows)
            yield table

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
