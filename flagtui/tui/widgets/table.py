"""The shared table: keyed rows with diff updates, j/k/g/G, `/` filter, `y` copies the key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input

from flagtui.tui.format import clean, safe_text

Cell = str | Text
Row = tuple[str, Sequence[Cell]]


def _plain(cell: Cell) -> str:
    return cell.plain if isinstance(cell, Text) else cell


def _text(cell: Cell) -> Text:
    """Cells are shown as written: a name like `beta[bold]` is not Rich markup (a plain `str`
    would be parsed as markup by DataTable, on every render of its row), and a control
    character is drawn as a visible symbol, on one line."""
    if isinstance(cell, Text):
        return safe_text(cell, multiline=False)
    return Text(clean(cell), no_wrap=True, end="")


class ResourceTable(DataTable[Cell]):
    """Rows are keyed by the resource's name or id; `set_rows` changes only what changed."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="table.down", tooltip="Next row"),
        Binding("k", "cursor_up", "Up", show=False, id="table.up", tooltip="Previous row"),
        Binding("g", "scroll_top", "Top", show=False, id="table.top", tooltip="First row"),
        Binding("G", "scroll_bottom", "Bottom", show=False, id="table.bottom", tooltip="Last row"),
        Binding("y", "copy_key", "Copy", show=False, id="table.copy", tooltip="Copy the row's key"),
        Binding("slash", "filter", "Filter", id="table.filter", tooltip="Filter the rows"),
    ]

    class FilterRequested(Message):
        """`/` was pressed: the container shows its filter input (or search box)."""

        def __init__(self, table: ResourceTable) -> None:
            super().__init__()
            self.table = table

    def __init__(self, columns: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._columns = columns
        self._all: list[Row] = []
        self.filter_text = ""

    def on_mount(self) -> None:
        for key, label in self._columns:
            self.add_column(label, key=key)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter belongs to the screen, whose binding says what it does ("Open", "Edit", ...).
        return action != "select_cursor"

    @property
    def selected_key(self) -> str | None:
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value

    def row_text(self, key: str) -> list[str]:
        """A row's cells as plain text."""
        return [_plain(cell) for cell in self.get_row(key)]

    def set_rows(self, rows: Sequence[Row]) -> None:
        self._all = [(key, [_text(c) for c in cells]) for key, cells in rows]
        self._show()

    def set_filter(self, text: str) -> None:
        self.filter_text = text
        self._show()

    def _show(self) -> None:
        needle = self.filter_text.lower()
        rows = [
            (key, cells)
            for key, cells in self._all
            if not needle or any(needle in _plain(c).lower() for c in (key, *cells))
        ]
        current = [row.key.value for row in self.ordered_rows]
        if current == [key for key, _ in rows]:
            for key, cells in rows:
                for (column, _), old, new in zip(
                    self._columns, self.get_row(key), cells, strict=True
                ):
                    if old != new:
                        self.update_cell(key, column, new)
            return
        keep = self.selected_key
        self.clear()
        for key, cells in rows:
            self.add_row(*cells, key=key)
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep), animate=False)

    def action_copy_key(self) -> None:
        key = self.selected_key
        if key is None:
            return
        self.app.copy_to_clipboard(key)
        self.notify(f"Copied {clean(key)!r}", timeout=3, markup=False)

    def action_filter(self) -> None:
        self.post_message(self.FilterRequested(self))


class FilteredTable(Vertical):
    """A ResourceTable with a filter input that appears on `/` (Escape hides and clears it)."""

    BINDINGS = [Binding("escape", "close_filter", "Clear filter", show=False, id="filter.close")]

    def __init__(self, table: ResourceTable, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter rows (Enter: back to table, Esc: clear)", classes="filter")
        yield self.table

    @on(ResourceTable.FilterRequested)
    def _open(self, event: ResourceTable.FilterRequested) -> None:
        event.stop()
        box = self.query_one(Input)
        box.display = True
        box.focus()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self.table.set_filter(event.value)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.table.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close_filter":
            return bool(self.query_one(Input).display)
        return True

    def action_close_filter(self) -> None:
        box = self.query_one(Input)
        box.value = ""
        box.display = False
        self.table.focus()
