"""Clone, delete for good and complete on the sandbox, as real Unleash 8.2 answers them (the
same checks run on real Unleash: tests/conformance/intent/, its flag_ops module)."""

from __future__ import annotations

import uuid

import httpx

from tests.sandbox.conftest import assert_error, events_of

PROJECT = "default"
FEATURES = f"/api/admin/projects/{PROJECT}/features"


def fresh(prefix: str = "ops") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


async def a_flag_with_a_rollout(admin: httpx.AsyncClient) -> str:
    name = fresh()
    created = await admin.post(
        FEATURES, json={"name": name, "type": "experiment", "description": "d1"}
    )
    assert created.status_code == 201, created.text
    strategy = {
        "name": "flexibleRollout",
        "parameters": {"rollout": "30", "stickiness": "default", "groupId": name},
        "title": "t1",
    }
    added = await admin.post(
        f"{FEATURES}/{name}/environments/development/strategies", json=strategy
    )
    assert added.status_code == 200, added.text
    on = await admin.post(f"{FEATURES}/{name}/environments/development/on")
    assert on.status_code == 200
    return name


async def test_clone_copies_the_flag_off_with_its_strategies_and_records_creation(
    admin: httpx.AsyncClient,
) -> None:
    source = await a_flag_with_a_rollout(admin)
    name = f"{source}-c"
    answer = await admin.post(f"{FEATURES}/{source}/clone", json={"name": name})
    assert answer.status_code == 201, answer.text
    assert answer.json()["name"] == name and answer.json()["type"] == "experiment"
    clone = (await admin.get(f"{FEATURES}/{name}")).json()
    assert clone["description"] == "d1"
    envs = {e["name"]: e for e in clone["environments"]}
    assert not envs["development"]["enabled"]  # every environment starts off
    (copied,) = envs["development"]["strategies"]
    assert copied["parameters"]["groupId"] == name  # replaceGroupId defaults to true
    assert copied["title"] == "t1" and copied["parameters"]["rollout"] == "30"
    types = [e["type"] for e in await events_of(admin, feature=name)]
    assert types == ["feature-strategy-add", "feature-created"]


async def test_clone_keeps_the_group_id_when_asked_and_refuses_taken_or_bad_names(
    admin: httpx.AsyncClient,
) -> None:
    source = await a_flag_with_a_rollout(admin)
    name = f"{source}-k"
    body = {"name": name, "replaceGroupId": False}
    assert (await admin.post(f"{FEATURES}/{source}/clone", json=body)).status_code == 201
    kept = (await admin.get(f"{FEATURES}/{name}")).json()
    dev = next(e for e in kept["environments"] if e["name"] == "development")
    assert dev["strategies"][0]["parameters"]["groupId"] == source
    taken = await admin.post(f"{FEATURES}/{source}/clone", json={"name": name})
    assert_error(taken, 409, "NameExistsError")
    bad = await admin.post(f"{FEATURES}/{source}/clone", json={"name": "bad name"})
    assert_error(bad, 400, "ValidationError")
    missing = await admin.post(f"{FEATURES}/{source}/clone", json={})
    assert_error(missing, 400, "ValidationError")
    unknown = await admin.post(f"{FEATURES}/nope-{fresh()}/clone", json={"name": fresh()})
    assert_error(unknown, 404, "NotFoundError")


async def test_delete_removes_only_archived_flags_and_records_feature_deleted(
    admin: httpx.AsyncClient,
) -> None:
    name = await a_flag_with_a_rollout(admin)
    live = await admin.delete(f"/api/admin/archive/{name}")
    assert live.status_code == 200
    assert (await admin.get(f"{FEATURES}/{name}")).status_code == 200  # a live flag stays
    assert (await events_of(admin, feature=name))[0]["type"] != "feature-deleted"
    assert (await admin.delete(f"{FEATURES}/{name}")).status_code == 202
    gone = await admin.delete(f"/api/admin/archive/{name}")
    assert gone.status_code == 200 and gone.content == b""
    deleted = (await events_of(admin, feature=name))[0]
    assert deleted["type"] == "feature-deleted" and deleted["project"] == PROJECT
    assert deleted["data"] is None
    assert deleted["preData"]["name"] == name and deleted["preData"]["archived"] is True
    search = await admin.get(f"/api/admin/search/features?query={name}&archived=IS:true")
    assert name not in [f["name"] for f in search.json()["features"]]
    # the name is free again
    assert (await admin.post(FEATURES, json={"name": name})).status_code == 201


async def test_bulk_delete_skips_live_and_unknown_names(admin: httpx.AsyncClient) -> None:
    archived, live = await a_flag_with_a_rollout(admin), await a_flag_with_a_rollout(admin)
    assert (await admin.delete(f"{FEATURES}/{archived}")).status_code == 202
    body = {"features": [archived, live, f"nope-{fresh()}"]}
    answer = await admin.post(f"/api/admin/projects/{PROJECT}/delete", json=body)
    assert answer.status_code == 200, answer.text
    assert (await events_of(admin, feature=archived))[0]["type"] == "feature-deleted"
    assert (await events_of(admin, feature=live))[0]["type"] != "feature-deleted"
    assert (await admin.get(f"{FEATURES}/{live}")).status_code == 200
    bad = await admin.post(f"/api/admin/projects/{PROJECT}/delete", json={"features": "x"})
    assert_error(bad, 400, "ValidationError")


async def test_complete_enters_the_completed_stage_once_with_its_status(
    admin: httpx.AsyncClient,
) -> None:
    name = await a_flag_with_a_rollout(admin)
    path = f"{FEATURES}/{name}/lifecycle/complete"
    answer = await admin.post(path, json={"status": "kept", "statusValue": "blue"})
    assert answer.status_code == 200 and answer.content == b""
    lifecycle = (await admin.get(f"{FEATURES}/{name}")).json()["lifecycle"]
    assert lifecycle["stage"] == "completed" and lifecycle["status"] == "kept"
    event = (await events_of(admin, feature=name))[0]
    assert event["type"] == "feature-completed"
    assert event["data"] == {"status": "kept", "statusValue": "blue", "kept": True}
    # again, otherwise: one more event, the first status kept (as real Unleash does)
    assert (await admin.post(path, json={"status": "discarded"})).status_code == 200
    again = (await events_of(admin, feature=name))[0]
    assert again["data"] == {"status": "discarded", "kept": False}
    assert (await admin.get(f"{FEATURES}/{name}")).json()["lifecycle"]["status"] == "kept"


async def test_complete_checks_its_body_and_ignores_unknown_flags(
    admin: httpx.AsyncClient,
) -> None:
    name = await a_flag_with_a_rollout(admin)
    path = f"{FEATURES}/{name}/lifecycle/complete"
    assert_error(await admin.post(path, json={"status": "bogus"}), 400, "ValidationError")
    extra = await admin.post(path, json={"status": "kept", "extra": 1})
    assert_error(extra, 400, "ValidationError")
    unknown = await admin.post(f"{FEATURES}/nope-{fresh()}/lifecycle/complete",
                               json={"status": "kept"})  # fmt: skip
    assert unknown.status_code == 200
    assert (await admin.get(f"{FEATURES}/{name}")).json()["lifecycle"]["stage"] != "completed"


async def test_the_writes_need_a_writer(viewer: httpx.AsyncClient) -> None:
    for method, path, body in (
        ("POST", f"{FEATURES}/x/clone", {"name": "y"}),
        ("DELETE", "/api/admin/archive/x", None),
        ("POST", f"/api/admin/projects/{PROJECT}/delete", {"features": ["x"]}),
        ("POST", f"{FEATURES}/x/lifecycle/complete", {"status": "kept"}),
    ):
        answer = await viewer.request(method, path, json=body)
        assert_error(answer, 403, "NoAccessError")


async def test_clone_of_a_child_copies_its_parent_and_records_it(admin: httpx.AsyncClient) -> None:
    page = await admin.get("/api/admin/search/features?limit=100&project=IS:payments")
    child = next(f for f in page.json()["features"] if f.get("dependencyType") == "child")
    path = f"/api/admin/projects/payments/features/{child['name']}"
    parent = (await admin.get(path)).json()["dependencies"]
    name = fresh("child")
    assert (await admin.post(f"{path}/clone", json={"name": name})).status_code == 201
    clone = (await admin.get(f"/api/admin/projects/payments/features/{name}")).json()
    assert clone["dependencies"] == parent
    event = (await events_of(admin, feature=name))[0]
    assert event["type"] == "feature-dependency-added" and event["data"] == parent[0]
