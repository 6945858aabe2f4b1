"""`flagtui project default-strategy show|set`: golden JSON, a dry run, what the server keeps
and what a flag switched on afterwards gets; a strategy Unleash refuses is refused first."""

from __future__ import annotations

import httpx

from ..conftest import Run, event_count
from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

SET = ("project", "default-strategy", "set", "default", "--env", "development")


def test_prints_its_answers_as_json_when_piped(run: Run) -> None:
    show = ("project", "default-strategy", "show", "default", "--env", "development")
    assert_piped_golden(run, "default-strategy-show", *show)
    assert_piped_golden(run, "default-strategy-set", *SET, "--rollout", "40")


def test_dry_run_sends_nothing(run: Run, server: httpx.Client) -> None:
    assert_dry_run_sends_nothing(run, server, *SET, "--rollout", "40")


def test_a_flag_switched_on_afterwards_gets_it(run: Run, server: httpx.Client) -> None:
    shown = run("project", "default-strategy", "show", "default", "--env", "development")
    assert shown.json["builtIn"] is True
    assert shown.json["defaultStrategy"]["parameters"]["rollout"] == "100"
    result = run(*SET, "--rollout", "40", "--constraint", "country IN NO")
    assert result.code == 0, result.err
    assert result.json["done"] == "default-strategy-updated"
    assert result.json["effect"].startswith("changes no flag now")
    envs = server.get("/api/admin/environments/project/default").json()["environments"]
    [kept] = [e["defaultStrategy"] for e in envs if e["name"] == "development"]
    assert kept["parameters"] == {"rollout": "40", "stickiness": "default", "groupId": ""}
    same = run(*SET, "--rollout", "40", "--constraint", "country IN NO")
    assert same.code == 0 and same.json["done"] is None
    server.post("/api/admin/projects/default/features", json={"name": "after-default"})
    flag = "/api/admin/projects/default/features/after-default/environments/development"
    server.post(f"{flag}/on")
    [got] = server.get(f"{flag}/strategies").json()
    assert got["parameters"] == {
        "rollout": "40",
        "stickiness": "default",
        "groupId": "after-default",
    }
    assert got["constraints"][0]["contextName"] == "country"


def test_what_unleash_refuses_is_refused_first(run: Run, server: httpx.Client) -> None:
    before = event_count(server)
    other = run(*SET, "--type", "default")
    assert other.code == 2 and other.error["message"].startswith("--type: flexibleRollout")
    over = run(*SET, "--rollout", "101")
    assert over.code == 2 and over.error["message"].startswith("--rollout")
    nowhere = run("project", "default-strategy", "set", "default", "--env", "nowhere")
    assert nowhere.code == 2 and nowhere.error["message"].startswith("--env: an environment of")
    assert event_count(server) == before
