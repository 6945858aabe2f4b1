"""`flagtui feature clone|delete|complete` against the sandbox: golden JSON, dry runs, the
server's state and the events afterwards; what is refused before anything is sent."""

from __future__ import annotations

import httpx

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, assert_dry_run_sends_nothing, assert_piped_golden

FLAG = "admin-async-emails"  # a live flag of the demo's default project
FEATURES = f"/api/admin/projects/{PROJECT}/features"


def with_rollout(server: httpx.Client, name: str) -> str:
    assert server.post(FEATURES, json={"name": name}).status_code == 201
    strategy = {"name": "flexibleRollout", "parameters": {"rollout": "40", "groupId": name}}
    path = f"{FEATURES}/{name}/environments/development/strategies"
    assert server.post(path, json=strategy).status_code == 200
    return name


def archived(server: httpx.Client, name: str) -> str:
    with_rollout(server, name)
    assert server.delete(f"{FEATURES}/{name}").status_code == 202
    return name


def events(server: httpx.Client, name: str) -> list[dict]:
    answer = server.get("/api/admin/search/events", params={"feature": f"IS:{name}"})
    return list(answer.json()["events"])


def archived_names(server: httpx.Client, query: str) -> list[str]:
    params = {"query": query, "project": f"IS:{PROJECT}", "lifecycle": "IS:archived"}
    page = server.get("/api/admin/search/features", params=params).json()
    return [f["name"] for f in page["features"]]


# -- clone -------------------------------------------------------------------------------------


def test_clone_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "feature-clone", "feature", "clone", PROJECT, FLAG, f"{FLAG}-copy")


def test_clone_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, "feature", "clone", PROJECT, FLAG, "dry-clone")


def test_clone_copies_the_rollout_keeping_its_group_unless_asked(run, server):
    source = with_rollout(server, "clone-source")
    kept = run("feature", "clone", PROJECT, source, "clone-kept", "-o", "json")
    assert kept.code == 0, kept.err
    assert kept.json == {
        "done": "feature-created", "project": PROJECT, "featureName": "clone-kept",
        "clonedFrom": source, "strategies": 1, "replaceGroupId": False,
    }  # fmt: skip
    flag = server.get(f"{FEATURES}/clone-kept").json()
    dev = next(e for e in flag["environments"] if e["name"] == "development")
    assert dev["strategies"][0]["parameters"]["groupId"] == source
    assert not dev["enabled"]
    assert [e["type"] for e in events(server, "clone-kept")] == [
        "feature-strategy-add", "feature-created",
    ]  # fmt: skip
    own = run("feature", "clone", PROJECT, source, "clone-own", "--replace-group-id")
    assert own.code == 0, own.err
    dev = next(
        e for e in server.get(f"{FEATURES}/clone-own").json()["environments"]
        if e["name"] == "development"
    )  # fmt: skip
    assert dev["strategies"][0]["parameters"]["groupId"] == "clone-own"


def test_clone_refuses_a_bad_or_taken_name_before_cloning(run, server):
    before = event_count(server)
    bad = run("feature", "clone", PROJECT, FLAG, "no spaces", "-o", "json")
    assert bad.code == 2 and bad.error["kind"] == "invalid-argument"
    assert bad.error["message"].startswith("NEW_NAME: ")
    taken = run("feature", "clone", PROJECT, FLAG, FLAG, "-o", "json")
    assert taken.code == 2 and taken.error["name"] == "NameExistsError"
    missing = run("feature", "clone", PROJECT, "no-such-flag", "fresh-name", "-o", "json")
    assert missing.code == 4
    assert event_count(server) == before


# -- delete for good ---------------------------------------------------------------------------


def test_delete_prints_its_answer_as_json_when_piped(run, server):
    name = archived_names(server, "")[0]
    assert_piped_golden(run, "feature-delete", "feature", "delete", PROJECT, name, "--yes")


def test_delete_dry_run_sends_nothing(run, server):
    name = archived(server, "dry-delete")
    assert_dry_run_sends_nothing(run, server, "feature", "delete", PROJECT, name, "--yes")


def test_delete_removes_an_archived_flag_and_records_feature_deleted(run, server):
    name = archived(server, "delete-me")
    result = run("feature", "delete", PROJECT, name, "--yes", "-o", "json")
    assert result.code == 0, result.err
    assert result.json == {"done": "feature-deleted", "project": PROJECT, "featureName": name}
    assert name not in archived_names(server, name)
    assert server.get(f"{FEATURES}/{name}").status_code == 404
    newest = events(server, name)[0]
    assert newest["type"] == "feature-deleted" and newest["preData"]["archived"] is True


def test_delete_of_several_is_one_request_and_each_is_said(run, server):
    names = [archived(server, "delete-a"), archived(server, "delete-b")]
    result = run("feature", "delete", PROJECT, *names, "--yes", "-o", "json")
    assert result.code == 0, result.err
    assert [r["featureName"] for r in result.json] == names
    assert all(r["done"] == "feature-deleted" for r in result.json)
    for name in names:
        assert events(server, name)[0]["type"] == "feature-deleted"
        assert name not in archived_names(server, name)


def test_delete_refuses_a_live_flag_saying_to_archive_it_first(run, server):
    live = with_rollout(server, "still-live")
    gone = archived(server, "archived-one")
    before = event_count(server)
    result = run("feature", "delete", PROJECT, gone, live, "--yes", "-o", "table")
    assert result.code == 2
    assert "still-live is not archived" in result.line and "archive it first" in result.line
    assert event_count(server) == before  # the archived one was not deleted either
    assert gone in archived_names(server, gone)
    assert server.get(f"{FEATURES}/{live}").status_code == 200


def test_delete_needs_the_typed_name_or_yes(run, server):
    name = archived(server, "keep-me")
    refused = run("feature", "delete", PROJECT, name, "-o", "json")
    assert refused.code == 2 and refused.error["kind"] == "not-confirmed"
    assert name in archived_names(server, name)
    missing = run("feature", "delete", PROJECT, "no-such-flag", "--yes", "-o", "json")
    assert missing.code == 4 and missing.error["kind"] == "not-found"


# -- mark completed ----------------------------------------------------------------------------


def test_complete_prints_its_answer_as_json_when_piped(run, server):
    argv = ("feature", "complete", PROJECT, a_live_flag(server, 2))
    assert_piped_golden(run, "feature-complete", *argv)


def test_complete_dry_run_sends_nothing(run, server):
    name = with_rollout(server, "dry-complete")
    assert_dry_run_sends_nothing(run, server, "feature", "complete", PROJECT, name)


def test_complete_with_a_variant_kept_then_again_sends_nothing(run, server):
    name = with_rollout(server, "complete-me")
    path = f"{FEATURES}/{name}/environments/development/strategies"
    strategy = server.get(path).json()[0]
    variants = [{"name": "blue", "weight": 1000, "weightType": "variable", "stickiness": "default"}]
    assert server.put(f"{path}/{strategy['id']}", json={**strategy, "variants": variants})
    result = run("feature", "complete", PROJECT, name, "--variant", "blue", "-o", "json")
    assert result.code == 0, result.err
    assert result.json == {
        "done": "feature-completed", "project": PROJECT, "featureName": name,
        "status": "kept", "statusValue": "blue",
    }  # fmt: skip
    lifecycle = server.get(f"{FEATURES}/{name}").json()["lifecycle"]
    assert lifecycle == {**lifecycle, "stage": "completed", "status": "kept"}
    assert events(server, name)[0]["data"] == {
        "status": "kept",
        "statusValue": "blue",
        "kept": True,
    }
    before = event_count(server)
    again = run("feature", "complete", PROJECT, name, "--status", "discarded", "-o", "json")
    assert again.code == 0 and again.json["done"] is None
    assert "completed already" in again.json["unchanged"]
    assert event_count(server) == before


def test_complete_refuses_a_variant_the_flag_lacks_or_with_discarded(run, server):
    name = with_rollout(server, "no-variants")
    before = event_count(server)
    lacking = run("feature", "complete", PROJECT, name, "--variant", "red", "-o", "json")
    assert lacking.code == 2 and lacking.error["message"].startswith("--variant: ")
    discarded = run("feature", "complete", PROJECT, name, "--status", "discarded",
                    "--variant", "red", "-o", "json")  # fmt: skip
    assert discarded.code == 2 and "only with --status kept" in discarded.error["message"]
    assert event_count(server) == before
    assert server.get(f"{FEATURES}/{name}").json()["lifecycle"]["stage"] != "completed"
