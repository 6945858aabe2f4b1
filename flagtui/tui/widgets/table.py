"""The shared table: keyed rows with diff updates, j/k/g/G, `/` filter, `y` copies the key.

It holds the record behind each row (`selected_record`), and it sizes its columns itself from
what they hold, on every change and on every resize: each column as wide as its widest cell (up
to its `max`), the one `flex` column the width the others leave. No screen does column
arithmetic, and no order of rendering can leave a column at its header's width. A `middle`
column's cuts never make two different values read alike where the width allows otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from rich.text import Text
from textual import events, getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.cache import LRUCache
from textual.containers import Vertical
from textual.widgets import Input

from flagtui.tui.format import clean, safe_text
from flagtui.tui.widgets.clipping import clip_column
from flagtui.tui.widgets.datatable_internals import Cell, KeptRenderingTable, Prepared, shown
from flagtui.tui.widgets.focus import focus_now

Row = tuple[str, Sequence[Cell]]
Fitted = tuple[Prepared, list[int], Prepared, dict[str, tuple[object, ...]]]
"""The rows given, the columns' widths, the rows clipped to them, what each row shows."""
R = TypeVar("R")
MIN_FLEX = 10  # the flexible column's narrowest, unless it says otherwise
KEPT_PAGES = 8  # pages of rows kept ready to show (converted, fitted and clipped)


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    max: int | None = None
    """Wider cells are clipped with `…` (the column may still be narrower)."""
    flex: bool = False
    """Takes the width the other columns leave (one per table; without one, none stretches)."""
    middle: bool = False
    """Clipped in the middle: `feature-…ment-enabled` keeps both ends; where values would then
    read alike (`perf2-ho…ort (webhook)` for `perf2-hook-1 dead port (webhook)` and `-2`), the
    cut moves past where they differ (`perf2-hook-1…(webhook)`)."""
    head: int | None = 8
    """How many characters a middle cut keeps at the start: at most half the width; None:
    half (a name's words, and its end)."""
    min: int | None = None
    """The narrowest it gets when space is short (default: its header's width, MIN_FLEX for the
    flexible column)."""
    fair: int | None = None
    """The flexible column's fair width: when space is short, the columns with a `max` give it
    width until it has this much (or all it holds), as they do for its `min`, so that what
    matters most in the row is not the one cut short (a flag's name in the event log)."""

    @property
    def floor(self) -> int:
        if self.min is not None:
            return self.min
        return MIN_FLEX if self.flex else len(self.label)


def _text(cell: Cell) -> Text:
    """Cells are shown as written: a name like `beta[bold]` is not Rich markup (a plain `str`
    would be parsed as markup by DataTable, on every render of its row), and a control
    character is drawn as a visible symbol, on one line."""
    if isinstance(cell, Text):
        return safe_text(cell, multiline=False)
    return Text(clean(cell), no_wrap=True, end="")


class ResourceTable(KeptRenderingTable, Generic[R]):
    """Rows are keyed by the resource's name or id; `set_rows` changes only what changed."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="table.down", tooltip="Next row"),
        Binding("k", "cursor_up", "Up", show=False, id="table.up", tooltip="Previous row"),
        Binding("g", "scroll_top", "Top", show=False, id="table.top", tooltip="First row"),
        Binding("G", "scroll_bottom", "Bottom", show=False, id="table.bottom", tooltip="Last row"),
        Binding("y", "copy", "Copy", show=False, id="table.copy", tooltip="Copy the row's key"),
        Binding("slash", "filter", "Filter", id="table.filter", tooltip="Filter the rows"),
    ]

    def __init__(self, columns: Sequence[Column | tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.specs = [c if isinstance(c, Column) else Column(*c) for c in columns]
        self._all: list[tuple[str, list[Text]]] = []
        self._records: dict[str, R] = {}
        self.filter_text = ""
        # The rows given to set_rows (kept, so their id is not reused) and what became of them.
        self._converted: LRUCache[int, tuple[Sequence[Row], Prepared]] = LRUCache(KEPT_PAGES)
        self._fitted: LRUCache[tuple[object, ...], Fitted] = LRUCache(KEPT_PAGES)

    def on_mount(self) -> None:
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        self._show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter belongs to the screen, whose binding says what it does ("Open", "Edit", ...).
        return action != "select_cursor"

    @property
    def selected_key(self) -> str | None:
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value

    @property
    def visible_keys(self) -> list[str]:
        """The keys of the rows on screen, the filter applied, in the order shown."""
        return [str(row.key.value) for row in self.ordered_rows]

    @property
    def selected_record(self) -> R | None:
        """The record behind the highlighted row (given to `set_rows`)."""
        key = self.selected_key
        return None if key is None else self._records.get(key)

    def set_rows(self, rows: Sequence[Row], records: Sequence[R] = ()) -> None:
        """The rows to show; `records`, when given, are the rows' records, in the same order.
        The same `rows` object given again (a page shown again) is not converted again."""
        converted = self._converted.get(id(rows))
        if converted is None or converted[0] is not rows:
            converted = rows, [(key, [_text(c) for c in cells]) for key, cells in rows]
            self._converted[id(rows)] = converted
        self._all = converted[1]
        pairs = zip(rows, records, strict=True) if records else ()
        self._records = {key: record for (key, _), record in pairs}
        self._show()

    def relabel(self, key: str, label: str) -> None:
        """A column's header changed (the zone the event log's times are in): the columns are
        laid out again at the next `set_rows`, the new label's width counted."""
        specs = [replace(spec, label=label) if spec.key == key else spec for spec in self.specs]
        if specs != self.specs:
            self.specs = specs
            self._fitted.clear()  # fitted to the old label's width
            self._widths = []  # the columns are added again, with their labels

    def set_filter(self, text: str) -> None:
        self.filter_text = text
        self._show()

    def _fit(self, rows: list[tuple[str, list[Text]]]) -> list[int]:
        """Each column as wide as what it holds (up to its `max`); the flexible one gets what
        the others leave. When that is less than its `floor` (or its `fair` width, up to what it
        holds), the columns with a `max` give up width, the widest first, down to their own
        `floor`."""
        widths = []
        for index, spec in enumerate(self.specs):
            widest = max((cells[index].cell_len for _, cells in rows), default=0)
            widest = max(widest, len(spec.label))
            if spec.max is not None:
                widest = min(widest, max(spec.max, len(spec.label)))
            widths.append(widest)
        flex = next((i for i, spec in enumerate(self.specs) if spec.flex), None)
        width = self._width()
        if flex is None or not width:
            return widths
        padding = 2 * self.cell_padding * len(self.specs) + self.styles.scrollbar_size_vertical
        left = width - padding - sum(w for i, w in enumerate(widths) if i != flex)
        clippable = [i for i, spec in enumerate(self.specs) if spec.max is not None]
        flexible = self.specs[flex]
        while left < max(flexible.floor, min(flexible.fair or 0, widths[flex])):
            room = [i for i in clippable if widths[i] > self.specs[i].floor]
            if not room:
                break
            widest = max(room, key=lambda i: widths[i])
            widths[widest] -= 1
            left += 1
        widths[flex] = max(flexible.floor, min(widths[flex], left))
        return widths

    def _width(self) -> int:
        """Before its first layout (on mount) the table is taken as wide as the screen, as the
        areas lay it out; a narrower one is fitted again on its first Resize."""
        return self.size.width or self.app.size.width

    def _clipped(self, rows: Prepared, widths: list[int]) -> Prepared:
        """The rows' cells cut to their columns' widths, each column as a whole (a `middle`
        column keeps its values apart)."""
        columns = [
            clip_column(
                [cells[index] for _, cells in rows], width, middle=spec.middle, head=spec.head
            )
            for index, (width, spec) in enumerate(zip(widths, self.specs, strict=True))
        ]
        return [(key, list(cells)) for (key, _), *cells in zip(rows, *columns, strict=True)]

    def _show(self) -> None:
        # In the app's DOM, not `is_mounted`: Textual counts a widget as mounted only once its
        # Mount handlers are done, after the screen's first frame, and the rows came a frame
        # late (an empty table first, on every screen).
        if not self.is_attached:
            return
        needle = self.filter_text.lower()
        memo = (id(self._all), self._width(), needle)
        fitted = self._fitted.get(memo)
        if fitted is not None and fitted[0] is self._all:
            _, widths, rows, shown_rows = fitted
        else:
            widths = self._fit(self._all)
            rows = self._clipped(
                [
                    (key, cells)
                    for key, cells in self._all
                    if not needle
                    or needle in key.lower()
                    or any(needle in c.plain.lower() for c in cells)
                ],
                widths,
            )
            # What each row shows, as `_render_line` keys it: worked out once per page (600
            # cells' keys were a sixth of a PageDown's own work).
            shown_rows = {key: tuple(map(shown, cells)) for key, cells in rows}
            self._fitted[memo] = self._all, widths, rows, shown_rows
        current = [row.key.value for row in self.ordered_rows]
        if widths == self._widths and current == [key for key, _ in rows]:
            for key, cells in rows:
                for spec, old, new in zip(self.specs, self.get_row(key), cells, strict=True):
                    if shown(old) != shown(new):  # Text equality ignores its style
                        self.update_cell(key, spec.key, new)
            self._shown = shown_rows
            return
        keep = self.selected_key
        self.clear(columns=widths != self._widths)
        if widths != self._widths:
            for spec, width in zip(self.specs, widths, strict=True):
                self.add_column(spec.label, key=spec.key, width=width)
            self._widths = widths
        self._shown = shown_rows
        self._add_rows(rows)
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep), animate=False)

    def action_copy(self) -> None:
        key = self.selected_key
        if key is None:
            return
        self.app.copy_to_clipboard(key)
        self.notify(f"Copied {clean(key)!r}", timeout=3, markup=False)

    def action_filter(self) -> None:
        """Open the nearest container's filter input (or search box) now, not through a
        message: the keys typed right after `/` belong to it (see `type_ahead.py`)."""
        for node in self.ancestors:
            if isinstance(node, FilterHost):
                node.open_filter()
                return


@runtime_checkable
class FilterHost(Protocol):
    """A container of a ResourceTable that opens a filter input (or search box) on `/`."""

    def open_filter(self) -> None: ...


class FilteredTable(Vertical):
    """A ResourceTable with a filter input that appears on `/` (Escape hides and clears it)."""

    BINDINGS = [Binding("escape", "close_filter", "Clear filter", show=False, id="filter.close")]
    filter_box = getters.query_one(Input)

    def __init__(self, table: ResourceTable, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter rows (Enter: back to table, Esc: clear)", classes="filter")
        yield self.table

    def open_filter(self) -> None:
        self.filter_box.display = True
        focus_now(self.filter_box)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self.table.set_filter(event.value)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.table.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close_filter":
            return bool(self.filter_box.display)
        return True

    def action_close_filter(self) -> None:
        self.filter_box.value = ""
        self.filter_box.display = False
        self.table.focus()
