"""Real Unleash's project batch routes on the sandbox: archive, stale, and the environment switch
(all or none), each flag with the event its one-flag route records."""

from __future__ import annotations

import httpx

from tests.sandbox.conftest import assert_error, events_of

SEARCH = "/api/admin/search/features"


async def live_names(admin: httpx.AsyncClient, project: str, count: int) -> list[str]:
    response = await admin.get(f"/api/admin/projects/{project}/features")
    assert response.status_code == 200
    return [f["name"] for f in response.json()["features"][:count]]


async def flag(admin: httpx.AsyncClient, project: str, name: str) -> httpx.Response:
    return await admin.get(f"/api/admin/projects/{project}/features/{name}")


async def a_project(admin: httpx.AsyncClient) -> str:
    projects = (await admin.get("/api/admin/projects")).json()["projects"]
    return next(p["id"] for p in projects if p["id"] == "payments")


async def test_archive_many_archives_each_with_its_event_and_skips_the_others(
    admin: httpx.AsyncClient,
) -> None:
    project = await a_project(admin)
    names = await live_names(admin, project, 3)
    await admin.delete(f"/api/admin/projects/{project}/features/{names[2]}")  # archived already
    body = {"features": [*names, "no-such-flag"]}
    response = await admin.post(f"/api/admin/projects/{project}/archive", json=body)
    assert response.status_code == 202 and response.content == b""
    for name in names:
        assert (await flag(admin, project, name)).status_code == 404
        archived = await events_of(admin, feature=name, type="feature-archived")
        assert len(archived) == 1  # the one archived before is not archived again
    found = await admin.get(f"{SEARCH}?query={names[0]}&lifecycle=IS:archived")
    assert [f["name"] for f in found.json()["features"]] == [names[0]]


async def test_a_flag_of_another_project_refuses_the_whole_batch(
    admin: httpx.AsyncClient,
) -> None:
    project = await a_project(admin)
    mine = await live_names(admin, project, 1)
    projects = (await admin.get("/api/admin/projects")).json()["projects"]
    other = next(p["id"] for p in projects if p["id"] != project)
    theirs = await live_names(admin, other, 1)
    body = {"features": [*mine, *theirs]}
    response = await admin.post(f"/api/admin/projects/{project}/archive", json=body)
    assert_error(response, 403, "NoAccessError")
    assert (await flag(admin, project, mine[0])).status_code == 200


async def test_switch_many_is_all_or_none(admin: httpx.AsyncClient) -> None:
    project = await a_project(admin)
    names = await live_names(admin, project, 2)
    base = f"/api/admin/projects/{project}/bulk_features/environments/development"
    await admin.post(f"{base}/off", json={"features": names})
    refused = await admin.post(f"{base}/on", json={"features": [*names, "no-such-flag"]})
    assert_error(refused, 404, "NotFoundError")
    for name in names:
        environments = (await flag(admin, project, name)).json()["environments"]
        assert not next(e["enabled"] for e in environments if e["name"] == "development")
    switched = await admin.post(f"{base}/on", json={"features": names})
    assert switched.status_code == 200
    for name in names:
        environments = (await flag(admin, project, name)).json()["environments"]
        assert next(e["enabled"] for e in environments if e["name"] == "development")
        events = await events_of(admin, feature=name, type="feature-environment-enabled")
        assert events and events[0]["environment"] == "development"


async def test_stale_many_marks_each_once_with_its_event(admin: httpx.AsyncClient) -> None:
    project = await a_project(admin)
    names = await live_names(admin, project, 2)
    path = f"/api/admin/projects/{project}/stale"
    assert (await admin.post(path, json={"features": names, "stale": False})).status_code == 202
    before = {n: len(await events_of(admin, feature=n, type="feature-stale-on")) for n in names}
    for _ in range(2):  # the second time, nothing changes: no event
        response = await admin.post(path, json={"features": [*names, "nope"], "stale": True})
        assert response.status_code == 202
    for name in names:
        assert (await flag(admin, project, name)).json()["stale"] is True
        after = await events_of(admin, feature=name, type="feature-stale-on")
        assert len(after) == before[name] + 1
    missing = await admin.post(path, json={"features": names})
    assert_error(missing, 400, "ValidationError")
