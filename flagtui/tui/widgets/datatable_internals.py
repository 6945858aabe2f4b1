"""Everything flagtui does with Textual's private DataTable internals, in this one module.

DataTable empties its render caches on every row change (their keys hold a count of changes),
so a page shown again after PageDown/PageUp was rendered anew, cell by cell, through Rich: most
of a page change's time. `KeptRenderingTable` keeps rendered cells and lines by what they show
instead, and adds a page of rows at once. That needs these private names (Textual is pinned
exactly in pyproject.toml for them; tests/tui/test_datatable_internals.py checks each one is
still there with the shape below, and names the Textual version when one is not):

Overridden:
- `_render_cell(row_index, column_index, base_style, width, cursor, hover)`: the cells of a
  row, kept by what they show (the header's are DataTable's own to cache), and a cell that is
  one line of Text drawn without Rich's layout (`_one_line_cell`).
- `_render_line(y, x1, x2, base_style)`: a line of a row, kept the same way, and the header's
  line, kept by its labels and widths (DataTable draws it anew on every change of rows).
- `_update_dimensions(new_rows)`: DataTable measures every new cell (Rich's measure) for
  auto-width columns and auto-height rows; here every column has a set width and every row one
  line, so only the virtual size is worked out (called with no rows).
Also overridden, public: `render_lines` and `rich_style`, so that a frame's lines ask for the
table's style once (DataTable's `render_line` asks on every line, a walk up the DOM each).
Called:
- `_get_styles_to_render_cell(...)`: a cell's component style and post style, which a cell
  drawn without Rich's layout (`_one_line_cell`) layers as DataTable does.
- `_get_offsets(y)`: the row key and line within it of a line of the table.
- `_highlight_cursor()`: after adding rows at once, as `add_row` does for a first row.
Read or written:
- `_row_locations`, `_column_locations` (TwoWayDict: `get`, `get_key`, item assignment): a row's
  or column's index and key; `_data` (row key -> column key -> cell): the cells;
  `rows` with `Row(key, height)` (textual.widgets.data_table): rows added at once.
- `_update_count` (bumped) and `_require_update_dimensions` (set): what `add_row` does to
  have the table measured and its caches refreshed.
- `_header_row_key`: the header's row key, for a line `_get_offsets` does not know.
- `_show_hover_cursor`, `_pseudo_class_state`: part of what a rendered cell or line depends
  on (DataTable's own cache keys hold them too).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import Row as TableRow
from textual.widgets.data_table import RowKey

Cell = str | Text
Prepared = list[tuple[str, list[Text]]]  # each row's key and its cells, ready to show
KEPT_CELLS = 6000  # rendered cells kept across row changes: some 50 screens of 6 columns
KEPT_LINES = 2000  # rendered lines, the same

# What the test checks, Textual's names and parameters (annotations left out).
PRIVATE_METHODS = {
    "_render_cell": "(self, row_index, column_index, base_style, width, cursor=False, hover=False)",
    "_render_line": "(self, y, x1, x2, base_style)",
    "_update_dimensions": "(self, new_rows)",
    "_get_styles_to_render_cell": "(self, is_header_cell, is_row_label_cell, is_fixed_style_cell,"
    " hover, cursor, show_cursor, show_hover_cursor, has_css_foreground_priority,"
    " has_css_background_priority)",
    "_get_offsets": "(self, y)",
    "_highlight_cursor": "(self)",
}
PRIVATE_ATTRIBUTES = (
    "_row_locations",
    "_column_locations",
    "_data",
    "_update_count",
    "_require_update_dimensions",
    "_header_row_key",
    "_show_hover_cursor",
    "_pseudo_class_state",
)


def shown(cell: object) -> object:
    """What a cell shows, as a cache key (Rich's Text is not hashable)."""
    return (cell.plain, tuple(cell.spans), cell.style) if isinstance(cell, Text) else cell


class KeptRenderingTable(DataTable[Cell]):
    """A DataTable whose rendered cells and lines outlive row changes, and which takes a page
    of rows at once (`_add_rows`). The subclass keeps `_shown` (each row's cells, as a cache
    key) and `_widths` (the columns' widths) up to date."""

    _frame_style: Style | None = None  # while a frame's lines are drawn (`render_lines`)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kept: LRUCache[tuple[object, ...], list[list[Segment]]] = LRUCache(KEPT_CELLS)
        self._kept_lines: LRUCache[tuple[object, ...], Strip] = LRUCache(KEPT_LINES)
        self._shown: dict[str, tuple[object, ...]] = {}  # each row's cells, as a cache key
        self._widths: list[int] = []

    def _add_rows(self, rows: Prepared) -> None:
        """`add_row` for each row, at once, into the table just cleared: DataTable's does per
        row what is needed once (cursor checks, idle checks, the count of changes), about a
        third of a page change. One-line rows; no measuring (see `_update_dimensions`)."""
        columns = [column.key for column in self.ordered_columns]
        for index, (key, cells) in enumerate(rows):
            row_key = RowKey(key)
            self._row_locations[row_key] = index
            self._data[row_key] = dict(zip(columns, cells, strict=True))
            self.rows[row_key] = TableRow(row_key, 1)
        self._update_count += 1
        self._require_update_dimensions = True
        self.cursor_coordinate = self.cursor_coordinate  # kept within the rows
        if rows and self.show_cursor and self.cursor_type != "none":
            self._highlight_cursor()  # as add_row does for a first row
        self.check_idle()

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> list[list[Segment]]:
        if row_index < 0 or column_index < 0:  # the header: cached by DataTable itself
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        row_key = self._row_locations.get_key(row_index)
        column_key = self._column_locations.get_key(column_index)
        if row_key is None or column_key is None:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        cell = self._data[row_key][column_key]
        what = shown(cell)
        # The position is part of the key: the segments carry it (mouse clicks read it).
        key: tuple[object, ...] = (row_index, column_index, what, base_style, width, cursor)
        key += (hover, self._show_hover_cursor, self._pseudo_class_state, self.show_cursor)
        lines = self._kept.get(key)
        if lines is None:
            one_line = self.rows[row_key].height == 1
            lines = (
                self._one_line_cell(cell, row_index, column_index, base_style, width, cursor, hover)
                if one_line
                else None
            )
            if lines is None:
                lines = super()._render_cell(
                    row_index, column_index, base_style, width, cursor, hover
                )
            self._kept[key] = lines
        return lines

    def _one_line_cell(
        self,
        cell: Cell,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool,
        hover: bool,
    ) -> list[list[Segment]] | None:
        """The segments DataTable draws for a cell that is one line of Text fitting its column
        (every cell the shared table shows: `set_rows` clips them), without Rich's layout.
        DataTable renders each through `Styled(Padding(cell))`, wrapping and cropping it: half
        of drawing a page of new rows (profiled). A first page's rows drawn into the table took
        18 to 35 ms, 12 to 14 ms this way. The segments are the same, style for style
        (tests/tui/test_datatable_internals.py compares them); None for any other cell, which
        DataTable draws."""
        pad = self.cell_padding
        room = width - 2 * pad
        if not isinstance(cell, Text) or room < cell.cell_len:
            return None
        if "\n" in cell.plain or "\t" in cell.plain:
            return None
        fixed = row_index < self.fixed_rows or column_index < self.fixed_columns
        component, post = self._get_styles_to_render_cell(
            False, False, fixed, hover, cursor, self.show_cursor, self._show_hover_cursor,
            self.cursor_foreground_priority == "css", self.cursor_background_priority == "css",
        )  # fmt: skip
        console = self.app.console
        pre = base_style + Style.from_meta({"row": row_index, "column": column_index}) + component
        blank = Style.null()  # Padding's own style ("none"), on its spaces and the fill
        if cell.spans:
            shown = list(cell.render(console))
        else:  # Text.render drops a Text's own style when it has no spans (wrap makes one)
            shown = [Segment(cell.plain, console.get_style(cell.style) if cell.style else None)]
        fill = room - cell.cell_len
        parts = [Segment(" " * pad, blank)] if pad else []
        parts += shown
        parts += [Segment(" " * fill, blank)] if fill else []
        parts += [Segment(" " * pad, blank)] if pad else []
        post_style = console.get_style(post) if post else None
        return [list(Segment.apply_style(parts, style=pre, post_style=post_style))]

    def _render_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        """A line of rows as shown before is drawn again as it was (a whole page's worth), and
        the header as long as its labels and widths stay (DataTable draws it again, through
        Rich, on every change of rows: each page of a PageDown)."""
        try:
            row_key, line_no = self._get_offsets(y)
        except LookupError:  # below the last row
            return super()._render_line(y, x1, x2, base_style)
        if row_key is self._header_row_key:
            cells: tuple[object, ...] | None = tuple(shown(c.label) for c in self.ordered_columns)
        else:
            cells = self._shown.get(row_key.value) if row_key.value is not None else None
        if cells is None or self.cursor_type != "row":  # not a row of cells
            return super()._render_line(y, x1, x2, base_style)
        row = -1 if row_key is self._header_row_key else self._row_locations.get(row_key)
        on_cursor, on_hover = self.cursor_coordinate.row == row, self.hover_coordinate.row == row
        key: tuple[object, ...] = (y, line_no, x1, x2, self.size.width, base_style, cells)
        key += (tuple(self._widths), on_cursor, on_hover, self.show_cursor)
        key += (self._show_hover_cursor, self._pseudo_class_state)
        strip = self._kept_lines.get(key)
        if strip is None:
            strip = super()._render_line(y, x1, x2, base_style)
            self._kept_lines[key] = strip
        return strip

    def render_lines(self, crop: Region) -> list[Strip]:
        # DataTable's render_line asks for `rich_style` on every line, and each ask walks the
        # DOM up to the screen (a tenth of a page's drawing): asked once for the frame.
        self._frame_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._frame_style = None

    @property
    def rich_style(self) -> Style:
        return self._frame_style if self._frame_style is not None else super().rich_style

    def notify_style_update(self) -> None:
        self._kept.clear()  # a theme or CSS change
        self._kept_lines.clear()
        super().notify_style_update()

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        super()._update_dimensions(())
