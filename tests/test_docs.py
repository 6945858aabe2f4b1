"""The front door stays true: every file the docs link to or name exists, the README stays a
first read (under 200 lines), and the generated references are linked from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [
    ROOT / "README.md",
    ROOT / "ARCHITECTURE.md",
    ROOT / "CONTRIBUTING.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
NAMED_PATH = re.compile(r"`((?:flagtui|tests|scripts|bench|testkit|docs)/[\w./-]*\w)`")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_linked_or_named_file_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    missing = [
        target
        for target in LINK.findall(text)
        if "://" not in target and not (doc.parent / target).exists()
    ]
    missing += [path for path in NAMED_PATH.findall(text) if not (ROOT / path).exists()]
    assert missing == [], f"{doc.name} names what is not there"


def test_the_readme_is_a_first_read_that_links_the_references() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    for linked in ("ARCHITECTURE.md", "CONTRIBUTING.md", "docs/keys.md", "docs/commands.md"):
        assert f"]({linked})" in readme, linked
