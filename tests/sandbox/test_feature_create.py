"""Creating a flag and checking its name first, as real Unleash does (issue 25)."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.conftest import events_of

CREATE = "/api/admin/projects/default/features"


async def test_a_created_flag_is_answered_201_recorded_and_off_everywhere(
    admin: httpx.AsyncClient,
) -> None:
    body = {"name": "new-checkout", "type": "experiment", "description": "", "impressionData": True}
    created = await admin.post(CREATE, json=body)
    assert created.status_code == 201
    row = created.json()
    assert set(row) == {
        "name", "description", "type", "project", "stale", "createdAt", "impressionData", "archived"
    }  # fmt: skip
    assert (row["name"], row["type"], row["description"], row["impressionData"]) == (
        "new-checkout", "experiment", None, True
    )  # fmt: skip
    [event] = await events_of(admin, feature="new-checkout")
    assert event["type"] == "feature-created"
    assert event["data"] == row
    feature = (await admin.get(f"{CREATE}/new-checkout")).json()
    assert feature["lifecycle"]["stage"] == "initial"
    assert [e["name"] for e in feature["environments"]] == ["development", "production"]
    assert not any(e["enabled"] or e["strategies"] for e in feature["environments"])


async def test_the_type_defaults_to_release(admin: httpx.AsyncClient) -> None:
    created = await admin.post(CREATE, json={"name": "plain"})
    assert created.json()["type"] == "release"


@pytest.mark.parametrize(
    "body",
    [
        {"name": "has space"},
        {"name": ""},
        {"name": "x" * 101},
        {"name": ".."},
        {"name": "ünïcode"},
        {"name": "ok-name", "type": "no-such-type"},
        {"name": "ok-name", "impressionData": "yes"},
        {"type": "release"},
    ],
)
async def test_bad_bodies_are_400(admin: httpx.AsyncClient, body: dict) -> None:
    answer = await admin.post(CREATE, json=body)
    assert answer.status_code == 400
    assert answer.json()["name"] == "ValidationError"


async def test_a_taken_name_is_409_even_when_that_flag_is_archived(
    admin: httpx.AsyncClient,
) -> None:
    assert (await admin.post(CREATE, json={"name": "twice"})).status_code == 201
    again = await admin.post(CREATE, json={"name": "twice"})
    assert again.status_code == 409
    assert again.json()["message"] == "A flag with that name already exists"
    assert (await admin.delete(f"{CREATE}/twice")).status_code == 202
    archived = await admin.post(CREATE, json={"name": "twice"})
    assert archived.status_code == 409
    assert archived.json()["message"] == "An archived flag with that name already exists"


async def test_an_unknown_project_is_404(admin: httpx.AsyncClient) -> None:
    answer = await admin.post("/api/admin/projects/nope/features", json={"name": "fine"})
    assert answer.status_code == 404


async def test_the_viewer_may_validate_names_but_not_create(viewer: httpx.AsyncClient) -> None:
    assert (await viewer.post(CREATE, json={"name": "mine"})).status_code == 403
    ok = await viewer.post("/api/admin/features/validate", json={"name": "mine"})
    assert ok.status_code == 200
    assert ok.content == b""


async def test_validate_answers_as_creation_would(admin: httpx.AsyncClient) -> None:
    taken = (await admin.get("/api/admin/search/features?limit=1")).json()["features"][0]["name"]
    validate = "/api/admin/features/validate"
    assert (await admin.post(validate, json={"name": taken})).status_code == 409
    assert (await admin.post(validate, json={"name": "a b"})).status_code == 400
    free = await admin.post(validate, json={"name": "free-name", "projectId": "default"})
    assert free.status_code == 200
