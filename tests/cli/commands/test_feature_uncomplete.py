"""`flagtui feature uncomplete`: golden JSON, a dry run, the flag's stage afterwards; an unknown
flag, and one not completed (nothing sent)."""

from __future__ import annotations

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, assert_dry_run_sends_nothing, assert_piped_golden

ARGV = ("feature", "uncomplete", "platform", "db-batched-dashboard")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "feature-uncomplete", *ARGV)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *ARGV)


def test_feature_uncomplete(run, server):
    result = run("feature", "uncomplete", "platform", "db-batched-dashboard")
    assert result.code == 0, result.err
    assert result.json == {
        "done": "feature-uncompleted",
        "project": "platform",
        "featureName": "db-batched-dashboard",
    }
    flag = server.get("/api/admin/projects/platform/features/db-batched-dashboard").json()
    assert flag["lifecycle"]["stage"] != "completed"


def test_uncomplete_of_an_unknown_flag_is_not_found_and_of_a_live_one_sends_nothing(run, server):
    """Real Unleash answers 200 to both: exit 0 and "done" before the client read first."""
    before = event_count(server)
    missing = run("feature", "uncomplete", PROJECT, "no-such-flag", "-o", "json")
    assert missing.code == 4 and missing.error["kind"] == "not-found"
    live = run("feature", "uncomplete", PROJECT, a_live_flag(server, 3), "-o", "json")
    assert live.code == 0
    assert live.json["done"] is None and live.json["unchanged"] == "not completed (stage live)"
    assert event_count(server) == before
