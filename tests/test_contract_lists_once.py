"""The contract's fixed lists are defined once, in `flagtui/contract.py`: no other module of
flagtui spells out (most of) one of them again. A few members picked for a reason (demo data's
states) are not a copy, nor is a mapping that gives each member something (a colour per state)."""

from __future__ import annotations

import ast
from pathlib import Path

import flagtui
from flagtui import contract

PACKAGE = Path(flagtui.__file__).parent
LISTS = {
    "EVENT_TYPES": contract.EVENT_TYPES,
    "PATCH_OPS": contract.PATCH_OPS,
    "LIFECYCLE_STAGES": contract.LIFECYCLE_STAGES,
    "CHANGE_REQUEST_STATES": contract.CHANGE_REQUEST_STATES,
}
COPY_SHARE = 0.6  # a literal holding this share of a list (and at least 4 members) copies it


def strings(node: ast.AST) -> set[str]:
    """The strings a tuple, list or set literal (a Literal[...] included) holds."""
    if not isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set()
    return {i.value for i in node.elts if isinstance(i, ast.Constant) and isinstance(i.value, str)}


def copies(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        held = strings(node)
        for name, values in LISTS.items():
            shared = held & set(values)
            if len(shared) >= 4 and len(shared) >= COPY_SHARE * len(values):
                found.append((getattr(node, "lineno", 0), name))
    return found


def test_no_module_but_the_contract_spells_out_a_contract_list() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: a copy of {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != PACKAGE / "contract.py"
        for line, name in copies(path.read_text(encoding="utf-8"))
    ]
    assert not found, "import these from flagtui.contract instead:\n" + "\n".join(found)


def test_a_copy_is_found_and_a_few_picked_members_are_not() -> None:
    assert copies('STAGES = ["initial", "pre-live", "live", "completed"]') == [
        (1, "LIFECYCLE_STAGES")
    ]
    assert copies('OPS = Literal["add", "remove", "replace", "copy", "move"]') == [(1, "PATCH_OPS")]
    assert copies('DEMO = ["In review", "Approved", "Draft"]') == []
    assert copies('STYLE = {"initial": "dim", "pre-live": "", "live": "b", "completed": ""}') == []
