"""`flagtui feature enable|disable PROJECT NAME... ENV` (or --stdin): each flag switched in the
environment, its own outcome; production asks once (--yes off a terminal). Checked at the
sandbox: each flag's state and event."""

from __future__ import annotations

import io

import httpx

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, newest_event


def enabled_in(server: httpx.Client, name: str, environment: str) -> bool:
    flag = server.get(f"/api/admin/projects/{PROJECT}/features/{name}").json()
    return bool(next(e["enabled"] for e in flag["environments"] if e["name"] == environment))


def test_several_flags_switched_off_each_with_its_event(run, server):
    names = [a_live_flag(server, offset) for offset in range(3)]
    for name in names:
        server.post(f"/api/admin/projects/{PROJECT}/features/{name}/environments/development/on")
    result = run("feature", "disable", PROJECT, *names, "development", "-o", "json")
    assert result.code == 0, result.err
    assert [row["outcome"] for row in result.json] == ["done"] * 3
    for name in names:
        assert enabled_in(server, name, "development") is False
        assert newest_event(server, name)["type"] == "feature-environment-disabled"


def test_production_asks_once_for_the_whole_plan(run, server, monkeypatch):
    names = [a_live_flag(server, offset) for offset in range(2)]
    for name in names:
        server.post(f"/api/admin/projects/{PROJECT}/features/{name}/environments/production/off")
    before = event_count(server)
    refused = run("feature", "enable", PROJECT, *names, "production", "-o", "json")
    assert refused.code == 2 and refused.error["kind"] == "not-confirmed"
    assert "2 flags on in production" in refused.error["message"]
    assert event_count(server) == before
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(names) + "\n"))
    result = run("feature", "enable", PROJECT, "production", "--stdin", "--yes", "-o", "json")
    assert result.code == 0, result.err
    assert all(enabled_in(server, name, "production") for name in names)


def test_one_unknown_flag_is_refused_by_name_while_the_others_are_done(run, server):
    name = a_live_flag(server, 0)
    server.post(f"/api/admin/projects/{PROJECT}/features/{name}/environments/development/on")
    result = run("feature", "disable", PROJECT, name, "no-such-flag", "development", "-o", "json")
    assert result.code == 4, result.err
    rows = {row["featureName"]: row for row in result.json}
    assert rows[name]["outcome"] == "done"
    assert rows["no-such-flag"]["outcome"] == "refused"
    assert enabled_in(server, name, "development") is False


def test_flags_already_as_asked_are_unchanged_and_nothing_is_asked(run, server):
    name = a_live_flag(server, 0)
    server.post(f"/api/admin/projects/{PROJECT}/features/{name}/environments/production/on")
    before = event_count(server)
    result = run("feature", "enable", PROJECT, name, "no-such-flag", "production", "-o", "json")
    assert result.code == 4, result.err  # no --yes needed: nothing would be sent
    rows = {row["featureName"]: row for row in result.json}
    assert rows[name]["outcome"] == "unchanged"
    assert "already on in production" in rows[name]["detail"]
    assert rows["no-such-flag"]["outcome"] == "refused"
    assert event_count(server) == before
