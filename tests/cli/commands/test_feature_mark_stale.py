"""`flagtui feature mark-stale|unmark-stale PROJECT NAME... | --stdin`: each flag marked by the
batch route, its own outcome and event; checked at the sandbox."""

from __future__ import annotations

import io

import httpx

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, newest_event


def stale(server: httpx.Client, name: str) -> bool:
    return bool(server.get(f"/api/admin/projects/{PROJECT}/features/{name}").json()["stale"])


def test_flags_marked_stale_then_not_each_with_its_event(run, server, monkeypatch):
    names = [a_live_flag(server, offset) for offset in range(3)]
    server.post(f"/api/admin/projects/{PROJECT}/stale", json={"features": names, "stale": False})
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*names, "no-such-flag"]) + "\n"))
    marked = run("feature", "mark-stale", PROJECT, "--stdin", "-o", "json")
    assert marked.code == 4, marked.err  # the unknown flag, by name
    rows = {row["featureName"]: row for row in marked.json}
    assert rows["no-such-flag"]["outcome"] == "refused"
    for name in names:
        assert rows[name]["outcome"] == "done" and rows[name]["done"] == "feature-stale-on"
        assert stale(server, name)
        assert newest_event(server, name)["type"] == "feature-stale-on"
    again = run("feature", "mark-stale", PROJECT, *names, "-o", "json")
    assert [row["outcome"] for row in again.json] == ["unchanged"] * 3
    unmarked = run("feature", "unmark-stale", PROJECT, names[0], "-o", "json")
    assert unmarked.code == 0 and unmarked.json[0]["outcome"] == "done"
    assert not stale(server, names[0])
    assert newest_event(server, names[0])["type"] == "feature-stale-off"


def test_dry_run_shows_the_batch_request_and_sends_nothing(run, server):
    name = a_live_flag(server, 0)
    server.post(f"/api/admin/projects/{PROJECT}/stale", json={"features": [name], "stale": False})
    before = event_count(server)
    plan = run("feature", "mark-stale", PROJECT, name, "--dry-run", "-o", "json")
    assert plan.code == 0, plan.err
    assert plan.json[0]["outcome"] == "planned"
    assert plan.json[0]["path"] == f"/api/admin/projects/{PROJECT}/stale"
    assert plan.json[0]["body"] == {"features": [name], "stale": True}
    assert event_count(server) == before and not stale(server, name)
