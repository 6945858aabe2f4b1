"""`flagtui integration list`: golden JSON (masking: tests/cli/test_secrets.py)."""

from __future__ import annotations

from .helpers import assert_piped_golden


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "integration-list", "integration", "list")
