"""`flagtui integration enable|disable`: golden JSON, dry runs (the record it would send), the
integration read back; `--yes` off a terminal."""

from __future__ import annotations

from ..conftest import event_count
from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

ARGV = ("integration", "disable", "2", "--yes")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "integration-disable", *ARGV)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *ARGV)


def addon(server, addon_id: int) -> dict:
    return next(a for a in server.get("/api/admin/addons").json()["addons"] if a["id"] == addon_id)


def test_integration_disable_and_enable(run, server):
    before = event_count(server)
    result = run("integration", "disable", "2", "--yes")
    assert result.code == 0, result.err
    assert result.json["enabled"] is False
    assert addon(server, 2)["enabled"] is False
    assert run("integration", "enable", "2").code == 0
    assert addon(server, 2)["enabled"] is True
    recent = server.get("/api/admin/search/events", params={"limit": 2}).json()["events"]
    assert [e["type"] for e in recent] == ["addon-config-updated"] * 2
    assert event_count(server) == before + 2


def test_integration_enable_accepts_yes_as_disable_does(run, server):
    assert run("integration", "disable", "2", "--yes").code == 0
    result = run("integration", "enable", "2", "--yes")
    assert result.code == 0, result.err
    assert addon(server, 2)["enabled"] is True


def test_integration_disable_needs_yes_when_not_on_a_terminal(run, server):
    result = run("integration", "disable", "2")
    assert result.code == 2
    assert addon(server, 2)["enabled"] is True


def test_integration_disable_dry_run_shows_the_record_it_would_send(run, server):
    before = event_count(server)
    result = run("integration", "disable", "1", "--dry-run")
    assert result.code == 0, result.err
    sent = result.json
    assert (sent["method"], sent["path"]) == ("PUT", "/api/admin/addons/1")
    assert sent["body"]["enabled"] is False
    assert sent["body"]["parameters"]["url"] == "*****"  # masked: the server keeps its value
    assert set(sent["body"]) <= {
        "provider",
        "enabled",
        "description",
        "parameters",
        "events",
        "projects",
        "environments",
    }
    assert addon(server, 1)["enabled"] is True
    assert event_count(server) == before
