"""Segments written (`POST/PUT/DELETE /api/admin/segments`, `GET …/:id`, `…/:id/strategies`):
the answers, errors and events real Unleash 6.10.1, 7.5.1 and 8.2.0 give (sandbox/segments.py),
and the client API serving the edited segment."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import httpx
from starlette.applications import Starlette

from flagtui.contract import SEGMENT_VALUES_MAX

SEGMENTS = "/api/admin/segments"
IN = {"contextName": "userId", "operator": "IN", "values": ["1", "2"]}


async def _events(admin: httpx.AsyncClient, type_: str) -> list[dict]:
    answer = await admin.get("/api/admin/search/events", params={"type": f"IS:{type_}"})
    assert answer.status_code == 200
    return answer.json()["events"]


async def _create(admin: httpx.AsyncClient, name: str, **more: object) -> dict:
    answer = await admin.post(SEGMENTS, json={"name": name, "constraints": [IN], **more})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


async def test_create_answers_the_segment_and_records_it(admin: httpx.AsyncClient) -> None:
    body = {"name": "beta-readers", "description": "d", "project": "default", "extra": 1}
    made = await _create(admin, **body)  # type: ignore[arg-type]
    assert made["name"] == "beta-readers" and made["project"] == "default"
    assert made["constraints"] == [IN] and "extra" not in made
    assert made["createdBy"] and made["createdAt"]
    assert (await admin.get(f"{SEGMENTS}/{made['id']}")).json() == made
    [event] = await _events(admin, "segment-created")
    assert (event["data"], event["preData"], event["project"]) == (made, None, "default")
    listed = (await admin.get(SEGMENTS)).json()["segments"]
    assert [s["usedInFeatures"] for s in listed if s["id"] == made["id"]] == [0]


async def test_create_without_a_project_says_none(admin: httpx.AsyncClient) -> None:
    made = await _create(admin, "no-project")
    assert "project" not in made and made["description"] is None


async def test_bad_bodies_are_refused_as_real_unleash_refuses_them(
    admin: httpx.AsyncClient,
) -> None:
    def said(answer: httpx.Response) -> tuple[int, str, str]:
        body = answer.json()
        return answer.status_code, body["name"], body["details"][0]["message"]

    missing = await admin.post(SEGMENTS, json={"description": "x", "constraints": []})
    assert said(missing)[:2] == (400, "BadDataError") and "/body/name" in said(missing)[2]
    no_constraints = await admin.post(SEGMENTS, json={"name": "x"})
    assert "/body/constraints" in said(no_constraints)[2]
    empty = await admin.post(SEGMENTS, json={"name": "", "constraints": []})
    assert said(empty) == (400, "BadDataError", '"name" is not allowed to be empty.')
    many = [{**IN, "values": [str(i) for i in range(260)]}] * 4
    too_many = await admin.post(SEGMENTS, json={"name": "x", "constraints": many})
    limit = f"Segments may not have more than {SEGMENT_VALUES_MAX} values"
    assert said(too_many) == (400, "BadDataError", limit)
    nowhere = await admin.post(SEGMENTS, json={"name": "x", "project": "nope", "constraints": []})
    assert nowhere.status_code == 500 and nowhere.json()["name"] == "UnknownError"
    unowned = await admin.post(SEGMENTS, json={"name": "y", "project": "", "constraints": []})
    assert unowned.status_code == 201 and "project" not in unowned.json()
    await _create(admin, "taken")
    taken = await admin.post(SEGMENTS, json={"name": "taken", "constraints": []})
    assert (taken.status_code, taken.json()["name"]) == (409, "NameExistsError")
    assert taken.json()["message"] == "Segment name already exists"
    assert len(await _events(admin, "segment-created")) == 2


async def test_unknown_ids_are_404_with_real_unleash_message(admin: httpx.AsyncClient) -> None:
    for answer in (
        await admin.get(f"{SEGMENTS}/999999"),
        await admin.get(f"{SEGMENTS}/999999/strategies"),
        await admin.put(f"{SEGMENTS}/999999", json={"name": "x", "constraints": []}),
        await admin.delete(f"{SEGMENTS}/999999"),
        await admin.delete(f"{SEGMENTS}/abc"),
    ):
        assert answer.status_code == 404
        assert answer.json()["name"] == "NotFoundError"
        assert answer.json()["message"].startswith("No segment exists with ID ")


async def _used_segment(admin: httpx.AsyncClient, name: str) -> tuple[dict, dict]:
    made = await _create(admin, name)
    flag = f"{name}-flag"
    created = await admin.post("/api/admin/projects/default/features", json={"name": flag})
    assert created.status_code == 201
    path = f"/api/admin/projects/default/features/{flag}/environments/development/strategies"
    added = await admin.post(path, json={"name": "default", "segments": [made["id"]]})
    assert added.status_code == 200
    return made, {**added.json(), "feature": flag, "path": path}


async def test_update_is_204_and_records_after_and_before(admin: httpx.AsyncClient) -> None:
    made = await _create(admin, "edited")
    wanted = {"name": "edited", "description": "new", "constraints": [{**IN, "values": ["3"]}]}
    put = await admin.put(f"{SEGMENTS}/{made['id']}", json=wanted)
    assert (put.status_code, put.content) == (204, b"")
    now = (await admin.get(f"{SEGMENTS}/{made['id']}")).json()
    assert now == {**made, "description": "new", "constraints": wanted["constraints"]}
    [event] = await _events(admin, "segment-updated")
    assert (event["data"], event["preData"]) == (now, made)
    again = await admin.put(f"{SEGMENTS}/{made['id']}", json=wanted)
    assert again.status_code == 204
    assert len(await _events(admin, "segment-updated")) == 1  # nothing changed: no event
    await _create(admin, "other")
    clash = await admin.put(f"{SEGMENTS}/{made['id']}", json={**wanted, "name": "other"})
    assert (clash.status_code, clash.json()["name"]) == (409, "NameExistsError")


async def test_a_used_segment_stays_in_its_strategies_project(
    admin: httpx.AsyncClient, sandbox_app: Starlette
) -> None:
    made, _ = await _used_segment(admin, "moved")
    with closing(sqlite3.connect(sandbox_app.state.db_path)) as conn, conn:
        conn.execute("INSERT INTO projects SELECT 'p2', 'p2', description, created_at, health,"
                     " mode, favorite FROM projects WHERE id = 'default'")  # fmt: skip
    body = {"name": "moved", "project": "p2", "constraints": []}
    answer = await admin.put(f"{SEGMENTS}/{made['id']}", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["details"][0]["message"] == (
        "Invalid project. Segment is being used by strategies in other projects: default"
    )
    fine = await admin.put(f"{SEGMENTS}/{made['id']}", json={**body, "project": "default"})
    assert fine.status_code == 204


async def test_usage_names_the_strategies(admin: httpx.AsyncClient) -> None:
    made, strategy = await _used_segment(admin, "used")
    answer = await admin.get(f"{SEGMENTS}/{made['id']}/strategies")
    assert answer.json() == {
        "strategies": [
            {
                "id": strategy["id"],
                "projectId": "default",
                "featureName": strategy["feature"],
                "strategyName": "default",
                "environment": "development",
            }
        ],
        "changeRequestStrategies": [],
    }


async def test_delete_refuses_a_used_segment_then_deletes_it(admin: httpx.AsyncClient) -> None:
    made, strategy = await _used_segment(admin, "gone")
    refused = await admin.delete(f"{SEGMENTS}/{made['id']}")
    assert (refused.status_code, refused.content) == (409, b"")
    assert await _events(admin, "segment-deleted") == []
    assert (await admin.delete(f"{strategy['path']}/{strategy['id']}")).status_code == 200
    deleted = await admin.delete(f"{SEGMENTS}/{made['id']}")
    assert (deleted.status_code, deleted.content) == (204, b"")
    assert (await admin.get(f"{SEGMENTS}/{made['id']}")).status_code == 404
    [event] = await _events(admin, "segment-deleted")
    assert (event["data"], event["preData"]) == (None, made)
    found = await admin.get("/api/admin/search/events", params={"query": "gone"})
    assert "segment-deleted" in [e["type"] for e in found.json()["events"]]  # by its preData


async def test_the_client_api_serves_the_edited_segment(admin: httpx.AsyncClient) -> None:
    made, _ = await _used_segment(admin, "served")
    headers = {"Unleash-Client-Spec": "5.0.0"}
    first = await admin.get("/api/client/features", headers=headers)
    wanted = {"name": "served", "constraints": [{**IN, "values": ["42"]}]}
    assert (await admin.put(f"{SEGMENTS}/{made['id']}", json=wanted)).status_code == 204
    etag = {**headers, "If-None-Match": first.headers["etag"]}
    answer = await admin.get("/api/client/features", headers=etag)
    assert answer.status_code == 200  # not 304: the segment changed
    [served] = [s for s in answer.json()["segments"] if s["id"] == made["id"]]
    assert served["constraints"] == wanted["constraints"]
    inlined = (await admin.get("/api/client/features")).json()["features"]
    [flag] = [f for f in inlined if f["name"] == "served-flag"]
    assert flag["strategies"][0]["constraints"] == wanted["constraints"]


async def test_a_viewer_may_not_write_segments(
    viewer: httpx.AsyncClient, admin: httpx.AsyncClient
) -> None:
    made = await _create(admin, "viewed")
    assert (await viewer.get(f"{SEGMENTS}/{made['id']}")).status_code == 200
    answer = await viewer.post(SEGMENTS, json={"name": "x", "constraints": []})
    assert answer.status_code == 403
    assert (await viewer.delete(f"{SEGMENTS}/{made['id']}")).status_code == 403


async def test_an_archived_flags_strategies_do_not_hold_a_segment(admin: httpx.AsyncClient) -> None:
    made, strategy = await _used_segment(admin, "archived-use")
    archived = await admin.delete(f"/api/admin/projects/default/features/{strategy['feature']}")
    assert archived.status_code == 202
    usage = await admin.get(f"{SEGMENTS}/{made['id']}/strategies")
    assert usage.json()["strategies"] == []
    assert (await admin.delete(f"{SEGMENTS}/{made['id']}")).status_code == 204
