"""`flagtui feature show`: one flag, as golden JSON."""

from __future__ import annotations

from .helpers import assert_piped_golden


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "feature-show", "feature", "show", "default", "admin-async-emails")


def test_a_table_adds_the_rollout_per_environment_in_words(run):
    result = run("feature", "show", "default", "admin-new-emails", "-o", "table")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    start = lines.index("rollout in development (on):")
    assert lines[start + 1].startswith("  1. 00005d-d default")
    assert "       if country is not RU" in lines
    assert "       in segments premium-tier" in lines
    production = lines.index("rollout in production (on):")
    assert lines[production + 1] == (
        "  1. rollout- flexibleRollout “Beta tenants” 100 % by default, group admin-new-emails"
    )
    assert lines[production + 2] == "       if tenantId is one of acme-beta, globex-beta"
