"""`flagtui type list`: golden JSON."""

from __future__ import annotations

from .helpers import assert_piped_golden


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "type-list", "type", "list")
