"""`?` help: every key of the current screen and the app, built from the bindings themselves."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label


def binding_rows(screen: Screen[object]) -> list[tuple[str, str, str]]:
    """(key, description, tooltip) of the bindings active on `screen`, as a person reads them:
    the screen's own keys first (what this area does: at 80x24 they must not scroll away), then
    the generic ones (the focused widget's, such as a table's cursor keys, and Tab), then the
    app's, the same everywhere."""
    rows = []
    seen = set()
    ordered = sorted(screen.active_bindings.items(), key=lambda item: rank(screen, item[1]))
    for key, active in ordered:
        binding = active.binding
        if not binding.description or (binding.action, binding.description) in seen:
            continue
        seen.add((binding.action, binding.description))
        shown = binding.key_display or screen.app.get_key_display(binding)
        rows.append((shown or key, binding.description, active.tooltip or binding.tooltip))
    return rows


# What every Textual screen binds (Tab, shift+Tab, ctrl+c): generic, listed after the screen's own.
EVERY_SCREENS = frozenset(b.action for b in Screen.BINDINGS if isinstance(b, Binding))


def rank(screen: Screen[object], active: ActiveBinding) -> int:
    if active.node is screen and active.binding.action not in EVERY_SCREENS:
        return 0
    return 2 if active.node is screen.app else 1


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
