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

import pytest
from textual.widgets import DataTable
from textual.widgets.data_table import Row, RowKey

from flagtui.tui.widgets import datatable_internals, table
from flagtui.tui.widgets.datatable_internals import (
    PRIVATE_ATTRIBUTES,
    PRIVATE_METHODS,
    KeptRenderingTable,
)

TEXTUAL = f"Textual {version('textual')}"
OURS = {"_add_rows", "_kept", "_kept_lines", "_shown", "_widths"}  # KeptRenderingTable's own


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
