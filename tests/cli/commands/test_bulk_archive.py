"""`flagtui feature archive|revive PROJECT NAME... | --stdin`: one plan, asked once, each flag's
own outcome (done / unchanged / refused and why), checked at the sandbox: the events recorded,
the lifecycle stage; `--dry-run` sends nothing."""

from __future__ import annotations

import io

import httpx
import pytest

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, newest_event, stage_and_environments


def live_flags(server: httpx.Client, count: int) -> list[str]:
    return [a_live_flag(server, offset) for offset in range(count)]


def test_several_flags_each_get_their_own_outcome_and_event(run, server):
    names = live_flags(server, 3)
    server.delete(f"/api/admin/projects/{PROJECT}/features/{names[2]}")  # archived already
    asked = [*names, "no-such-flag-in-the-plan"]
    result = run("feature", "archive", PROJECT, *asked, "--yes", "-o", "json")
    assert result.code == 4, result.err  # the worst outcome: a flag not found
    outcomes = {row["featureName"]: row for row in result.json}
    assert [row["featureName"] for row in result.json] == asked
    for name in names[:2]:
        assert outcomes[name]["outcome"] == "done"
        assert outcomes[name]["done"] == "feature-archived"
        assert newest_event(server, name)["type"] == "feature-archived"
        assert stage_and_environments(server, name)[0] == "archived"
    assert outcomes[names[2]]["outcome"] == "unchanged"
    assert "already archived" in outcomes[names[2]]["detail"]
    missing = outcomes["no-such-flag-in-the-plan"]
    assert missing["outcome"] == "refused" and missing["error"]["kind"] == "not-found"


def test_names_from_stdin_with_dry_run_print_the_plan_and_send_nothing(run, server, monkeypatch):
    names = live_flags(server, 2)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*names, names[0], ""]) + "\n"))
    before = event_count(server)
    plan = run("feature", "archive", PROJECT, "--stdin", "--dry-run", "-o", "json")
    assert plan.code == 0, plan.err
    assert [row["featureName"] for row in plan.json] == names  # each once
    for row in plan.json:  # one batch request carries them all (real Unleash's route)
        assert row["outcome"] == "planned" and row["method"] == "POST"
        assert row["path"] == f"/api/admin/projects/{PROJECT}/archive"
        assert row["body"] == {"features": names}
    assert event_count(server) == before
    assert all(stage_and_environments(server, name)[0] == "live" for name in names)


def test_several_flags_off_a_terminal_need_yes_and_send_nothing_without(run, server):
    names = live_flags(server, 2)
    before = event_count(server)
    refused = run("feature", "archive", PROJECT, *names, "-o", "json")
    assert refused.code == 2 and refused.error["kind"] == "not-confirmed"
    assert event_count(server) == before


def test_revive_several_brings_each_back_off(run, server):
    names = live_flags(server, 2)
    assert run("feature", "archive", PROJECT, *names, "--yes", "-o", "json").code == 0
    revived = run("feature", "revive", PROJECT, *names, "-o", "table")
    assert revived.code == 0, revived.err
    assert "2 flags: 2 done" in revived.err
    for name in names:
        assert name in revived.out
        assert newest_event(server, name)["type"] == "feature-revived"
        flag = server.get(f"/api/admin/projects/{PROJECT}/features/{name}").json()
        assert flag["archived"] is False
        assert not any(e["enabled"] for e in flag["environments"])


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["a-flag", "--stdin"], "not both"),
        ([], "at least one"),
    ],
)
def test_names_are_given_one_way(run, argv, said):
    result = run("feature", "archive", PROJECT, *argv, "--yes", "-o", "json")
    assert result.code == 2 and said in result.error["message"]
