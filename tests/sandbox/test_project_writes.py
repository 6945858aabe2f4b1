"""Environment removal, project access, change request deletion."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.conftest import assert_error, events_of


async def test_removing_an_environment_drops_its_settings(admin: httpx.AsyncClient) -> None:
    features = (await admin.get("/api/admin/projects/payments/features")).json()["features"]
    assert any(
        e["name"] == "qa" and e["hasStrategies"] for f in features for e in f["environments"]
    )
    response = await admin.delete("/api/admin/projects/payments/environments/qa")
    assert response.status_code == 200 and response.content == b""
    features = (await admin.get("/api/admin/projects/payments/features")).json()["features"]
    assert all(e["name"] != "qa" for f in features for e in f["environments"])
    one = features[0]["name"]
    detail = (await admin.get(f"/api/admin/projects/payments/features/{one}")).json()
    assert [e["name"] for e in detail["environments"]] == ["development", "staging", "production"]
    envs = (await admin.get("/api/admin/environments/project/payments")).json()["environments"]
    assert {e["name"]: e["visible"] for e in envs}["qa"] is False
    event = (await events_of(admin, type="project-environment-removed"))[0]
    assert (event["project"], event["environment"]) == ("payments", "qa")
    assert event["preData"]["featureSettingsRemoved"] > 0
    # other projects keep their qa settings
    search = (await admin.get("/api/admin/projects/search/features")).json()["features"]
    assert any(e["name"] == "qa" for f in search for e in f["environments"])


@pytest.mark.parametrize(
    "path",
    [
        "/api/admin/projects/payments/environments/nope",
        "/api/admin/projects/default/environments/staging",
        "/api/admin/projects/nope/environments/production",
    ],
)
async def test_unknown_or_unlinked_environment_is_400(admin: httpx.AsyncClient, path: str) -> None:
    assert_error(await admin.delete(path), 400, "ValidationError")


async def test_access_grants_are_visible(admin: httpx.AsyncClient) -> None:
    body = {"roles": [5, 7], "groups": [2], "users": [9, 10]}
    response = await admin.post("/api/admin/projects/growth/access", json=body)
    assert response.status_code == 200 and response.content == b""
    access = (await admin.get("/api/admin/projects/growth/access")).json()
    users = {u["id"]: u["roles"] for u in access["users"]}
    groups = {g["id"]: g["roles"] for g in access["groups"]}
    assert {5, 7} <= set(users[9]) and {5, 7} <= set(users[10]) and {5, 7} <= set(groups[2])
    event = (await events_of(admin, type="project-access-added"))[0]
    assert event["project"] == "growth"
    before = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    assert (await admin.post("/api/admin/projects/growth/access", json=body)).status_code == 200
    after = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    assert after == before


@pytest.mark.parametrize(
    "body",
    [
        {"roles": [999], "groups": [], "users": [3]},
        {"roles": [5], "groups": [999], "users": []},
        {"roles": [5], "groups": [], "users": [999]},
        {"roles": [1], "groups": [], "users": [3]},
        {"roles": [5], "groups": []},
        {"roles": ["5"], "groups": [], "users": []},
        {"roles": [True], "groups": [], "users": []},
        {"roles": [-1], "groups": [], "users": []},
        {"roles": [2**70], "groups": [], "users": []},
    ],
)
async def test_bad_access_requests_are_400(admin: httpx.AsyncClient, body: dict) -> None:
    response = await admin.post("/api/admin/projects/growth/access", json=body)
    assert_error(response, 400, "ValidationError")


async def test_access_to_unknown_project_is_404(admin: httpx.AsyncClient) -> None:
    body = {"roles": [5], "groups": [], "users": [3]}
    assert_error(
        await admin.post("/api/admin/projects/nope/access", json=body), 404, "NotFoundError"
    )


async def test_delete_change_request(admin: httpx.AsyncClient) -> None:
    listed = (await admin.get("/api/admin/projects/payments/change-requests")).json()
    assert {c["state"] for c in listed} >= {"Draft", "Applied"}
    target = listed[0]
    path = f"/api/admin/projects/payments/change-requests/{target['id']}"
    assert (await admin.get(path)).json()["title"] == target["title"]
    response = await admin.delete(path)
    assert response.status_code == 200 and response.content == b""
    assert_error(await admin.get(path), 404, "NotFoundError")
    assert_error(await admin.delete(path), 404, "NotFoundError")
    event = (await events_of(admin, type="change-request-discarded"))[0]
    assert event["preData"]["id"] == target["id"]


@pytest.mark.parametrize("cr", ["999999", "abc", "-1", "1.0"])
async def test_unknown_change_request_is_404(admin: httpx.AsyncClient, cr: str) -> None:
    path = f"/api/admin/projects/payments/change-requests/{cr}"
    assert_error(await admin.delete(path), 404, "NotFoundError")


async def test_change_request_in_another_project_is_404(admin: httpx.AsyncClient) -> None:
    other = (await admin.get("/api/admin/projects/platform/change-requests")).json()[0]
    path = f"/api/admin/projects/payments/change-requests/{other['id']}"
    assert_error(await admin.delete(path), 404, "NotFoundError")
