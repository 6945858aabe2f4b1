"""Tools and tests on shared ground (issue 24): what bench/, scripts/ and tests/ share is in
testkit/, imported as a package; nothing edits sys.path to reach it, and no test module imports
another (a helper two test files need lives in a helper module or a conftest.py fixture)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("bench", "scripts", "tests", "testkit")


def python_files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def test_nothing_edits_sys_path() -> None:
    edits = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in python_files()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    ]
    assert not edits, "sys.path used (import from testkit/ instead):\n" + "\n".join(edits)


def test_no_test_module_imports_another() -> None:
    found = []
    for path in python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                modules = [node.module or ""] + [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            if any(part.startswith("test_") for m in modules for part in m.split(".")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "a test module imported (move the helper out of it):\n" + "\n".join(found)
