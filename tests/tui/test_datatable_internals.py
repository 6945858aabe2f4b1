"""The DataTable internals flagtui relies on (flagtui/tui/widgets/datatable_internals.py) are
still there, with the parameters it was written for. A new Textual that renames, removes or
reshapes one fails here, naming the version and what changed, before a screen draws wrongly:
this is what guards loosening Textual's exact pin."""

from __future__ import annotations

import ast
import inspect
import re
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import Row, RowKey

from flagtui.api.models import Feature
from flagtui.tui.format import short_names
from flagtui.tui.screens.features_layout import COLUMNS, feature_row
from flagtui.tui.widgets import datatable_internals, table
from flagtui.tui.widgets.datatable_internals import (
    PRIVATE_ATTRIBUTES,
    PRIVATE_METHODS,
    KeptRenderingTable,
)
from flagtui.tui.widgets.table import ResourceTable

TEXTUAL = f"Textual {version('textual')}"
OURS = {
    "_add_rows",
    "_frame_style",
    "_kept",
    "_kept_lines",
    "_one_line_cell",
    "_shown",
    "_widths",
}  # KeptRenderingTable's own


def bare(signature: inspect.Signature) -> str:
    """A signature's names, kinds and defaults, without annotations."""
    return str(
        signature.replace(
            parameters=[
                p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()
            ],
            return_annotation=inspect.Signature.empty,
        )
    )


@pytest.mark.parametrize("name", sorted(PRIVATE_METHODS))
def test_each_private_method_is_there_with_the_parameters_we_use(name):
    method = getattr(DataTable, name, None)
    assert method is not None, f"{TEXTUAL}: DataTable.{name} is gone (datatable_internals.py)"
    found = bare(inspect.signature(method))
    assert found == PRIVATE_METHODS[name], (
        f"{TEXTUAL}: DataTable.{name} is now {found}, was {PRIVATE_METHODS[name]}"
        " (datatable_internals.py overrides or calls it)"
    )


def test_each_private_attribute_is_there_with_the_shape_we_use():
    data_table: DataTable[str] = DataTable()
    missing = [name for name in PRIVATE_ATTRIBUTES if not hasattr(data_table, name)]
    assert missing == [], f"{TEXTUAL}: DataTable no longer sets {missing}"
    assert isinstance(data_table._data, dict), f"{TEXTUAL}: DataTable._data is not a dict"
    assert isinstance(data_table._update_count, int), f"{TEXTUAL}: _update_count is not an int"
    assert isinstance(data_table._header_row_key, RowKey), f"{TEXTUAL}: _header_row_key changed"
    for locations in ("_row_locations", "_column_locations"):
        mapping = getattr(data_table, locations)
        shape = [hasattr(mapping, m) for m in ("get", "get_key", "__setitem__")]
        assert all(shape), f"{TEXTUAL}: DataTable.{locations} lost get, get_key or item set"
    row_shape = bare(inspect.signature(Row))
    assert row_shape.startswith("(key, height"), f"{TEXTUAL}: data_table.Row is now {row_shape}"


def private_names(source: str) -> set[str]:
    """`self._x` and `super()._x` in a module's code."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            owner = node.value
            is_super = isinstance(owner, ast.Call) and getattr(owner.func, "id", "") == "super"
            if (isinstance(owner, ast.Name) and owner.id == "self") or is_super:
                found.add(node.attr)
    return {name for name in found if not re.fullmatch(r"__\w+__", name)}


def test_the_internals_module_uses_no_private_name_it_does_not_list():
    used = private_names(Path(datatable_internals.__file__).read_text())
    unlisted = used - set(PRIVATE_METHODS) - set(PRIVATE_ATTRIBUTES) - OURS
    assert unlisted == set(), f"list {unlisted} in datatable_internals.py (and here)"


def defined_names(source: str) -> set[str]:
    """Private names a module gives its own classes: `def _x` and `self._x = ...`."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("_"):
            found.add(node.name)
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and getattr(target.value, "id", "") == "self":
                found.add(target.attr)
    return {name for name in found if not re.fullmatch(r"__\w+__", name)}


def test_the_table_touches_no_datatable_internals_itself():
    """ResourceTable's private names are its own or KeptRenderingTable's, never DataTable's."""
    source = Path(table.__file__).read_text()
    own = defined_names(source)
    textuals = set(dir(DataTable())) | set(dir(DataTable))
    assert own & textuals == set(), f"table.py redefines DataTable's {own & textuals}"
    borrowed = private_names(source) - own - OURS
    assert borrowed == set(), f"move what uses {borrowed} into datatable_internals.py"
    overridden = set(vars(KeptRenderingTable)) & set(PRIVATE_METHODS)
    assert overridden == {"_render_cell", "_render_line", "_update_dimensions"}


class OneTable(App[None]):
    def __init__(self, table: ResourceTable[object]) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        yield self.table


def every_feature_row(sandbox: Any) -> list[tuple[str, tuple[object, ...]]]:
    """The features area's row of every flag the sandbox holds: the demo data and the hostile
    project (markup, control characters, wide characters, long names)."""
    headers = {"Authorization": sandbox.admin_token}
    projects = httpx.get(f"{sandbox.url}/api/admin/projects", headers=headers).json()["projects"]
    features = []
    for project in projects:
        query = {"project": f"IS:{project['id']}", "limit": 1000, "offset": 0}
        found = httpx.get(f"{sandbox.url}/api/admin/search/features", params=query, headers=headers)
        features += [Feature.model_validate(f) for f in found.json()["features"]]
    short = short_names({e.name for f in features for e in f.environments or []})
    return [feature_row(f, short) for f in features]


HANDMADE = [
    ("hand-1", (Text("plain"), Text("styled", style="bold red"), Text.assemble(("a", "bold"), "b"),
                Text("中文字", style="italic"), Text("é́ x"), Text(""))),
    ("hand-2", ("[bold]not markup[/]", "", Text("x", style="reverse"),
                Text.assemble(("w", "underline"), style="blue"), "1234567890" * 5, "")),
]  # fmt: skip


@pytest.mark.parametrize("columns", [120, 70])
async def test_a_one_line_cell_is_drawn_as_datatable_draws_it(sandbox: Any, columns: int) -> None:
    """Every cell the features area shows of the whole sandbox, and a few made by hand, on and
    off the cursor and the hover, on two row styles: the segments `_one_line_cell` makes are
    DataTable's own, text for text and style for style."""
    grid: ResourceTable[object] = ResourceTable(COLUMNS)
    async with OneTable(grid).run_test(size=(columns, 30)) as pilot:
        grid.set_rows([*every_feature_row(sandbox), *HANDMADE])
        await pilot.pause()
        compared = 0
        for row in range(grid.row_count):
            for column, spec in enumerate(grid.ordered_columns):
                width = spec.get_render_width(grid)
                cell = grid.get_cell_at(Coordinate(row, column))
                for cursor, hover in ((False, False), (True, False), (False, True)):
                    for base in (grid.rich_style, Style(bgcolor="grey11", color="white")):
                        quick = grid._one_line_cell(cell, row, column, base, width, cursor, hover)
                        assert quick is not None, f"{cell!r} was left to DataTable"
                        drawn = DataTable._render_cell(
                            grid, row, column, base, width, cursor, hover
                        )
                        assert segments(quick) == segments(drawn), repr(cell)
                        compared += 1
    assert compared == grid.row_count * len(COLUMNS) * 6 > 9000


def segments(lines: list[list[Segment]]) -> list[list[tuple[object, ...]]]:
    return [[(s.text, s.style, s.control) for s in line] for line in lines]


async def test_a_kept_header_is_drawn_as_datatable_draws_it() -> None:
    """The header's line is kept across row changes: off and under the mouse, after a change of
    rows and of widths, it is DataTable's own drawing of it (its caches emptied)."""
    grid: ResourceTable[object] = ResourceTable(COLUMNS)
    async with OneTable(grid).run_test(size=(100, 12)) as pilot:
        compared, looks = 0, set()
        for rows in (HANDMADE, HANDMADE[:1], [("x", ("",) * len(COLUMNS))], HANDMADE):
            grid.set_rows(rows)
            await pilot.pause()
            for hovered in (False, True):
                await pilot.hover(grid, offset=(3, 0) if hovered else (3, grid.size.height - 1))
                await pilot.pause()
                kept = grid._render_line(0, 0, grid.size.width, grid.rich_style)
                for cache in (grid._line_cache, grid._row_render_cache, grid._cell_render_cache):
                    cache.clear()
                drawn = DataTable._render_line(grid, 0, 0, grid.size.width, grid.rich_style)
                assert segments([list(kept)]) == segments([list(drawn)])
                compared += 1
                looks.add(str(segments([list(kept)])))
    assert compared == 8
    assert len(looks) >= 2  # the mouse over the header changes its drawing
