"""Counts and environments said once (issue 46, item 6): "1 flag", never "1 flags"; "in
production", never "in production environment production"; `feature revive` takes `--yes` as
every write does. Checked at the sandbox: what was sent, or that nothing was."""

from __future__ import annotations

import io

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, newest_event


def test_one_flag_from_stdin_is_one_flag_in_the_question_and_the_summary(
    run, server, monkeypatch
) -> None:
    name = a_live_flag(server, 0)
    before = event_count(server)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{name}\n"))
    refused = run("feature", "archive", PROJECT, "--stdin", "-o", "json")
    assert refused.code == 2 and refused.error["kind"] == "not-confirmed"
    said = refused.error["message"]
    assert f"archive 1 flag in project {PROJECT}" in said and "1 flags" not in said
    assert event_count(server) == before
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{name}\n"))
    done = run("feature", "archive", PROJECT, "--stdin", "--yes", "-o", "table")
    assert done.code == 0, done.err
    assert "1 flag: 1 done" in done.out + done.err and "1 flags" not in done.out + done.err
    assert newest_event(server, name)["type"] == "feature-archived"
    revived = run("feature", "revive", PROJECT, name, "--yes", "-o", "json")
    assert revived.code == 0, revived.err
    assert revived.json["done"] == "feature-revived"
    assert newest_event(server, name)["type"] == "feature-revived"


def test_a_switch_in_production_says_production_once(run, server) -> None:
    name = a_live_flag(server, 1)
    server.post(f"/api/admin/projects/{PROJECT}/features/{name}/environments/production/on")
    before = event_count(server)
    refused = run("feature", "disable", PROJECT, name, "production", "-o", "json")
    assert refused.code == 2, refused.err
    said = refused.error["message"]
    assert f"switch {name} off in production needs --yes" in said
    assert "production environment production" not in said
    assert event_count(server) == before
