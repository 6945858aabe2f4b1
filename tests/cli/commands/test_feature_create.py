"""`flagtui feature create`: golden JSON, a dry run (nothing sent: not even the name check,
a POST), the flag as stored, the server's name check and the type check refusing before
creating."""

from __future__ import annotations

from ..conftest import event_count
from .helpers import assert_dry_run_sends_nothing, assert_piped_golden
from .rollout_helpers import FEATURES, refused_before_sending


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "feature-create", "feature", "create", "default", "roll-golden")


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, "feature", "create", "default", "roll-dry")


def test_the_flag_as_stored(run, server):
    result = run(
        "feature", "create", "default", "roll-stored", "--type", "kill-switch",
        "--description", "stop it", "--impression-data",
    )  # fmt: skip
    assert result.code == 0, result.err
    stored = server.get(f"{FEATURES}/roll-stored").json()
    assert (stored["type"], stored["description"], stored["impressionData"]) == (
        "kill-switch",
        "stop it",
        True,
    )
    assert {e["name"]: e["enabled"] for e in stored["environments"]} == {
        "development": False,
        "production": False,
    }
    events = server.get("/api/admin/search/events", params={"limit": 1}).json()["events"]
    assert (events[0]["type"], events[0]["featureName"]) == ("feature-created", "roll-stored")


def test_a_taken_name_is_refused_by_the_name_check(run, server):
    before = event_count(server)
    result = run("feature", "create", "default", "admin-async-emails")
    assert result.code == 2
    assert result.error["path"] == "/api/admin/features/validate"
    assert result.error["name"] == "NameExistsError"
    assert event_count(server) == before


def test_a_bad_name_or_type_is_refused_before_sending(run, server):
    said = refused_before_sending(run, server, "feature", "create", "default", "roll two")
    assert said.startswith("name: a flag name of letters")
    argv = ("feature", "create", "default", "roll-t", "--type", "expriment")
    said = refused_before_sending(run, server, *argv)
    assert said.startswith("type: 'expriment' is not a feature type of this server")
    assert "did you mean experiment?" in said


def test_on_a_terminal_it_says_what_comes_next(run):
    result = run("feature", "create", "default", "roll-next", "-o", "table")
    assert result.code == 0, result.err
    assert result.out.splitlines() == [
        "done: feature-created project=default featureName=roll-next type=release",
        "next: flagtui feature strategy add default roll-next ENV --rollout PERCENT",
    ]


def test_read_only_profile_is_refused_before_any_request(run, cli_env):
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    result = run("feature", "create", "default", "roll-ro", "-P", "ro")
    assert result.code == 2
    assert result.error["kind"] == "read-only"
