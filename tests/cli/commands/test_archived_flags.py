"""`flagtui feature archive|revive` against the sandbox: the event recorded, the stage, the
environments afterwards; nothing sent where the flag is already as asked. (The patches that
mean archive or revive: test_feature_patch.py.)"""

from __future__ import annotations

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, newest_event, stage_and_environments


def test_archive_then_revive_record_unleashs_events_and_say_the_environments(run, server):
    name = a_live_flag(server, 0)
    flag = f"/api/admin/projects/{PROJECT}/features/{name}"
    server.post(f"{flag}/environments/production/on")
    archived = run("feature", "archive", PROJECT, name, "--yes", "-o", "json")
    assert archived.code == 0, archived.err
    assert archived.json["done"] == "feature-archived"
    assert "production" in archived.json["wasEnabledIn"]
    assert newest_event(server, name)["type"] == "feature-archived"
    stage, environments = stage_and_environments(server, name)
    assert stage == "archived" and environments["production"] is True

    again = run("feature", "archive", PROJECT, name, "--yes", "-o", "table")
    assert again.code == 0 and "nothing sent: " in again.out and "already archived" in again.out
    assert newest_event(server, name)["type"] == "feature-archived"  # no second archive

    revived = run("feature", "revive", PROJECT, name, "-o", "json")
    assert revived.code == 0, revived.err
    assert revived.json["done"] == "feature-revived"
    assert revived.json["enabledIn"] == [] and "production" in revived.json["wasEnabledIn"]
    assert newest_event(server, name)["type"] == "feature-revived"
    flag_now = server.get(flag).json()
    assert not any(e["enabled"] for e in flag_now["environments"])
    assert run("feature", "revive", PROJECT, name, "-o", "table").out.startswith("nothing sent: ")


def test_archive_needs_yes_off_a_terminal_and_sends_nothing_without(run, server):
    name = a_live_flag(server, 1)
    before = event_count(server)
    refused = run("feature", "archive", PROJECT, name, "-o", "json")
    assert refused.code == 2
    assert refused.error["kind"] == "not-confirmed"
    assert "--yes" in refused.error["message"]
    assert event_count(server) == before
    assert stage_and_environments(server, name)[0] == "live"


def test_archive_of_an_unknown_flag_is_not_found(run, server):
    before = event_count(server)
    missing = run("feature", "archive", PROJECT, "no-such-flag-anywhere", "--yes", "-o", "json")
    assert missing.code == 4 and missing.error["kind"] == "not-found"
    assert event_count(server) == before
