"""`flagtui segment list|show|create|edit|delete` on the sandbox: golden JSON, the server's
state after each write, the edit's preview judged by the SDKs' engine on what the server serves
afterwards, a segment in use refused before its DELETE, confirmations off a terminal."""

from __future__ import annotations

import json

import httpx
from yggdrasil_engine.engine import UnleashEngine

from .helpers import assert_dry_run_sends_nothing, assert_piped_golden


def _segments(server: httpx.Client) -> list[dict]:
    return list(server.get("/api/admin/segments").json()["segments"])


def _most_used(server: httpx.Client) -> dict:
    return max(_segments(server), key=lambda s: (s["usedInFeatures"], -s["id"]))


def _events(server: httpx.Client, type_: str) -> list[dict]:
    answer = server.get("/api/admin/search/events", params={"type": f"IS:{type_}"})
    return list(answer.json()["events"])


def test_list_and_show_print_their_answers_as_json_when_piped(run, server):
    assert_piped_golden(run, "segment-list", "segment", "list")
    assert_piped_golden(run, "segment-show", "segment", "show", _most_used(server)["name"])


def test_show_says_where_it_is_used(run, server):
    segment = _most_used(server)
    result = run("segment", "show", str(segment["id"]))
    used = server.get(f"/api/admin/segments/{segment['id']}/strategies").json()["strategies"]
    assert result.code == 0 and used
    assert [u["id"] for u in result.json["usedBy"]] == sorted(
        (u["id"] for u in used),
        key=lambda i: next((u["projectId"], u["featureName"], u["environment"])
                           for u in used if u["id"] == i),
    )  # fmt: skip
    table = run("segment", "show", segment["name"], "-o", "table")
    assert f"used by {len(used)} strateg{'y' if len(used) == 1 else 'ies'} of" in table.out
    assert f"{used[0]['projectId']}/{used[0]['featureName']} in {used[0]['environment']}" in (
        table.out
    )
    unknown = run("segment", "show", "no-such-segment")
    assert (unknown.code, unknown.error["kind"]) == (4, "not-found")


def test_create_stores_what_was_typed(run, server):
    argv = ("segment", "create", "cli-made", "--constraint", "userId IN a, b",
            "--project", "default", "--description", "made here")  # fmt: skip
    assert_dry_run_sends_nothing(run, server, *argv)
    [made] = [s for s in _segments(server) if s["name"] == "cli-made"]
    typed = {"contextName": "userId", "operator": "IN", "values": ["a", "b"]}
    assert made["constraints"] == [typed]
    [event] = _events(server, "segment-created")
    assert event["data"]["name"] == "cli-made" and event["project"] == "default"
    again = run(*argv)
    assert (again.code, again.error["kind"], again.error["name"]) == (
        2, "invalid-argument", "InvalidArgument",
    )  # fmt: skip
    assert "name: a segment 'cli-made' exists already" in again.error["message"]
    bad = run("segment", "create", "x", "--constraint", "userId NUM_GT many")
    assert bad.code == 2 and bad.error["message"].startswith("constraints[0].value:")
    assert len(_events(server, "segment-created")) == 1


def _enabled_for(server: httpx.Client, feature: str, environment: str, users: int) -> int:
    """What an SDK gets from the sandbox's client API, for the preview's userIds."""
    token = server.headers["Authorization"]
    headers = {"Authorization": token, "Unleash-Client-Spec": "5.0.0"}
    state = server.get("/api/client/features", headers=headers).json()
    assert environment == "development"  # the admin token's client API environment
    engine = UnleashEngine()
    engine.take_state(json.dumps(state))
    context = {"appName": "flagtui-playground", "environment": environment}
    return sum(
        engine.is_enabled(feature, {**context, "userId": f"u-{i}"}).is_enabled
        for i in range(1, users + 1)
    )


def test_edit_previews_every_flag_it_changes_and_the_sdk_agrees(run, server):
    segment = _most_used(server)
    used = server.get(f"/api/admin/segments/{segment['id']}/strategies").json()["strategies"]
    argv = ("segment", "edit", segment["name"], "--constraint", "userId IN u-1, u-2, u-3",
            "--users", "300")  # fmt: skip
    refused = run(*argv)
    assert (refused.code, refused.error["kind"]) == (2, "not-confirmed")
    assert next(s for s in _segments(server) if s["id"] == segment["id"]) == segment
    dry = run(*argv, "--dry-run")
    assert dry.json["method"] == "PUT" and dry.json["body"]["constraints"][0]["values"] == [
        "u-1", "u-2", "u-3",
    ]  # fmt: skip
    assert len(dry.json["preview"]["flags"]) == len(
        {(u["featureName"], u["environment"]) for u in used}
    )
    result = run(*argv, "--yes")
    assert result.code == 0, result.err
    assert result.json["done"] == "segment-updated"
    shares = result.json["preview"]["flags"]
    assert {(s["feature"], s["environment"]) for s in shares} == {
        (u["featureName"], u["environment"]) for u in used
    }
    # the demo keeps some strategies in an environment their flag's project does not list
    unread = [s for s in shares if "error" in s]
    assert all("has no environment" in s["error"] for s in unread)
    shares = [s for s in shares if "error" not in s]
    assert shares and all(s["users"] == 300 for s in shares)
    developed = [s for s in shares if s["environment"] == "development"]
    assert developed, "the demo's most used segment is used in development"
    for share in developed:
        assert share["after"] == _enabled_for(server, share["feature"], "development", 300)
        assert share["after"] <= 3
    [event] = _events(server, "segment-updated")
    assert event["preData"]["constraints"] == segment["constraints"]


def test_an_edit_where_the_flag_is_off_says_who_gets_it_once_switched_on(run, server):
    """Off, no one gets the flag before or after: the preview says who will once it is switched
    on, and that is who the SDK then gets."""
    features = "/api/admin/projects/default/features"
    assert server.post(features, json={"name": "seg-off-flag"}).is_success
    assert run("segment", "create", "seg-off", "--constraint", "userId IN u-1").code == 0
    [segment] = [x for x in _segments(server) if x["name"] == "seg-off"]
    parameters = {"rollout": "100", "stickiness": "default", "groupId": "g"}
    strategy = {"name": "flexibleRollout", "segments": [segment["id"]], "parameters": parameters}
    added = f"{features}/seg-off-flag/environments/development/strategies"
    assert server.post(added, json=strategy).is_success
    argv = ("segment", "edit", "seg-off", "--constraint", "userId IN u-1, u-2, u-3, u-4",
            "--users", "50", "--yes")  # fmt: skip
    table = run(*argv, "--dry-run", "-o", "table")
    said = "seg-off-flag in development: 0 → 0 of 50 synthetic userIds get the flag"
    assert f"{said} (development is off: no one now, once switched on: 1 → 4)" in table.out
    result = run(*argv)
    [share] = result.json["preview"]["flags"]
    assert share["whenSwitchedOn"] == {"before": 1, "after": 4}
    assert server.post(f"{features}/seg-off-flag/environments/development/on").is_success
    assert _enabled_for(server, "seg-off-flag", "development", 50) == 4


def test_edit_of_nothing_sends_nothing(run, server):
    segment = _segments(server)[0]
    result = run("segment", "edit", segment["name"], "--name", segment["name"], "--yes")
    assert result.code == 0 and result.json["done"] is None
    assert _events(server, "segment-updated") == []


def test_a_used_segment_is_refused_before_its_delete_naming_its_strategies(run, server):
    segment = _most_used(server)
    used = server.get(f"/api/admin/segments/{segment['id']}/strategies").json()["strategies"]
    result = run("segment", "delete", segment["name"], "--yes")
    assert (result.code, result.error["kind"]) == (2, "in-use")
    said = result.error["message"]
    assert used[0]["id"] in said and "Nothing was sent" in said
    assert segment["id"] in [s["id"] for s in _segments(server)]


def test_delete_asks_for_the_name_then_deletes(run, server):
    assert run("segment", "create", "cli-gone").code == 0
    refused = run("segment", "delete", "cli-gone")
    assert (refused.code, refused.error["kind"]) == (2, "not-confirmed")
    assert "cli-gone" in [s["name"] for s in _segments(server)]
    result = run("segment", "delete", "cli-gone", "--yes")
    assert result.code == 0 and result.json["done"] == "segment-deleted"
    assert "cli-gone" not in [s["name"] for s in _segments(server)]
    [event] = _events(server, "segment-deleted")
    assert event["preData"]["name"] == "cli-gone"
