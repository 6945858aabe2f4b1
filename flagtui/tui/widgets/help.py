"""`?` help: every key of the current screen and the app, built from the bindings themselves.
Each row's "What it does" is folded to the dialog's width (a row as tall as it needs), so at 80
columns nothing is cut off at the right edge or hidden behind a sideways scroll."""

from __future__ import annotations

import textwrap

from rich.text import Text
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


CELL_PADDING = 1  # DataTable's default, each side of every cell
NARROWEST = 20  # a fold no narrower than this, on the smallest terminals (then it scrolls)


def folded(text: str, width: int) -> Text:
    """`text` in lines of at most `width` characters, at spaces where it can."""
    lines = textwrap.wrap(text, max(width, NARROWEST), break_on_hyphens=False) or [""]
    return Text("\n".join(lines), no_wrap=True, end="")


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
            yield DataTable[str | Text](cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.call_after_refresh(self.fill)

    def fill(self) -> None:
        """The rows, each one's tooltip folded to the width the table has left for it."""
        table = self.query_one(DataTable)
        keys = max([len("Key"), *(len(k) for k, _, _ in self.rows)])
        actions = max([len("Action"), *(len(a) for _, a, _ in self.rows)])
        scrollbar = table.styles.scrollbar_size_vertical  # shown once the rows are in
        used = keys + actions + 6 * CELL_PADDING + scrollbar
        width = table.scrollable_content_region.width - used
        table.add_column("Key", width=keys)
        table.add_column("Action", width=actions)
        table.add_column("What it does", width=max(width, NARROWEST))
        for key, action, tooltip in self.rows:
            says = folded(tooltip, width)
            table.add_row(key, action, says, height=len(says.plain.splitlines()))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
