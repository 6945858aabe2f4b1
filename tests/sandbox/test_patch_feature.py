"""PATCH /api/admin/projects/:p/features/:f."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.conftest import a_feature, assert_error, events_of


def path(feature: dict) -> str:
    return f"/api/admin/projects/{feature['project']}/features/{feature['name']}"


async def test_patch_persists_the_five_fields_and_answers_the_full_record(
    admin: httpx.AsyncClient,
) -> None:
    feature = await a_feature(admin, "&state=IS:active")
    ops = [
        {"op": "replace", "path": "/description", "value": "New words"},
        {"op": "replace", "path": "/type", "value": "kill-switch"},
        {"op": "replace", "path": "/stale", "value": True},
        {"op": "replace", "path": "/impressionData", "value": not feature["impressionData"]},
    ]
    response = await admin.patch(path(feature), json=ops)
    assert response.status_code == 200
    body = response.json()
    assert body["description"] == "New words"
    assert body["type"] == "kill-switch"
    assert body["stale"] is True
    assert body["impressionData"] is not feature["impressionData"]
    for key in ("environments", "lifecycle", "createdBy", "tags", "children", "collaborators"):
        assert key in body
    again = (await admin.get(path(feature))).json()
    assert again == body
    types = [e["type"] for e in await events_of(admin, feature=feature["name"])][:2]
    assert types == ["feature-stale-on", "feature-metadata-updated"]
    meta = (await events_of(admin, feature=feature["name"], type="feature-metadata-updated"))[0]
    assert meta["data"]["description"] == "New words"
    assert meta["preData"]["description"] == feature["description"]
    assert meta["createdBy"] == "admin" and meta["createdByUserId"] == 1
    assert meta["project"] == feature["project"]


async def test_a_patch_that_changes_nothing_records_no_event(admin: httpx.AsyncClient) -> None:
    feature = await a_feature(admin)
    before = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    same = [{"op": "replace", "path": "/type", "value": feature["type"]}]
    assert (await admin.patch(path(feature), json=same)).status_code == 200
    assert (await admin.patch(path(feature), json=[])).status_code == 200
    after = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    assert after == before


async def test_archived_through_patch_is_a_mark_as_on_real_unleash(
    admin: httpx.AsyncClient,
) -> None:
    """Real Unleash stores a PATCH of /archived without its archive: no feature-archived or
    -revived event, the lifecycle stays, and unarchived its environments are as they were."""
    feature = await a_feature(admin, "&lifecycle=IS:live")
    environments = (await admin.get(path(feature))).json()["environments"]
    archived = await admin.patch(
        path(feature), json=[{"op": "replace", "path": "/archived", "value": True}]
    )
    assert archived.json()["archived"] is True
    assert archived.json()["archivedAt"] is not None
    assert archived.json()["lifecycle"] == feature["lifecycle"]
    revived = await admin.patch(
        path(feature), json=[{"op": "replace", "path": "/archived", "value": False}]
    )
    assert revived.json()["archivedAt"] is None
    assert revived.json()["lifecycle"] == feature["lifecycle"]
    assert revived.json()["environments"] == environments
    types = [e["type"] for e in await events_of(admin, feature=feature["name"])][:2]
    assert types == ["feature-metadata-updated", "feature-metadata-updated"]


async def test_a_type_that_is_no_feature_type_is_stored_as_on_real_unleash(
    admin: httpx.AsyncClient,
) -> None:
    feature = await a_feature(admin)
    typo = [{"op": "replace", "path": "/type", "value": "relase"}]
    assert (await admin.patch(path(feature), json=typo)).json()["type"] == "relase"


@pytest.mark.parametrize(
    "ops",
    [
        {"op": "replace", "path": "/description", "value": "x"},
        [{"op": "test", "path": "/name", "value": "x"}],
        [{"op": "replace", "path": "/name", "value": "other"}],
        [{"op": "replace", "path": "/project", "value": "default"}],
        [{"op": "replace", "path": "/type", "value": 7}],
        [{"op": "replace", "path": "/stale", "value": "yes"}],
        [{"op": "replace", "path": "/description", "value": 42}],
        [{"op": "remove", "path": "/stale"}],
        [{"op": "replace", "path": "/nope/deeper", "value": 1}],
        [{"op": "add", "path": "/tags/-", "value": {"type": "simple", "value": "x"}}],
        [{"op": "move", "path": "/description"}],
        [{"op": "add", "path": "/description"}],
        [{"op": "replace", "path": 5, "value": 1}],
        ["not an op"],
    ],
)
async def test_bad_patches_are_400_and_change_nothing(admin: httpx.AsyncClient, ops) -> None:
    feature = await a_feature(admin)
    before = (await admin.get(path(feature))).json()
    assert_error(await admin.patch(path(feature), json=ops), 400, "ValidationError")
    assert (await admin.get(path(feature))).json() == before


async def test_remove_description_sets_null(admin: httpx.AsyncClient) -> None:
    feature = await a_feature(admin, "&query=rolls")
    response = await admin.patch(path(feature), json=[{"op": "remove", "path": "/description"}])
    assert response.json()["description"] is None


async def test_unknown_project_or_feature_is_404(admin: httpx.AsyncClient) -> None:
    feature = await a_feature(admin)
    ops = [{"op": "replace", "path": "/stale", "value": True}]
    wrong_project = f"/api/admin/projects/nope/features/{feature['name']}"
    assert_error(await admin.patch(wrong_project, json=ops), 404, "NotFoundError")
    unknown = f"/api/admin/projects/{feature['project']}/features/nope"
    assert_error(await admin.patch(unknown, json=ops), 404, "NotFoundError")


# Real Unleash 6.10-8.2 check the body's shape, then the feature, then the rest.
@pytest.mark.parametrize(
    "ops",
    [
        [{"op": "replace", "path": "/description"}],
        [{"op": "replace", "path": "/nothing/deeper", "value": 1}],
        [{"op": "move", "path": "/description"}],
        [],
    ],
)
async def test_an_unknown_feature_is_404_before_what_only_applying_finds(
    admin: httpx.AsyncClient, ops: list
) -> None:
    unknown = "/api/admin/projects/payments/features/no-such-flag"
    assert_error(await admin.patch(unknown, json=ops), 404, "NotFoundError")


@pytest.mark.parametrize(
    "body",
    [{"op": "replace"}, [{"op": "bogus", "path": "/x"}], [{"op": "replace", "value": 1}], [7]],
)
async def test_a_body_of_the_wrong_shape_is_400_even_on_an_unknown_feature(
    admin: httpx.AsyncClient, body: object
) -> None:
    unknown = "/api/admin/projects/payments/features/no-such-flag"
    assert_error(await admin.patch(unknown, json=body), 400, "ValidationError")


async def test_a_trailing_slash_is_the_same_route_not_a_redirect(admin: httpx.AsyncClient) -> None:
    """Real Unleash (Express) serves `…/features/f/` as `…/features/f`; Starlette answered 307."""
    feature = await a_feature(admin)
    ops = [{"op": "replace", "path": "/description", "value": "with a slash"}]
    response = await admin.patch(f"{path(feature)}/", json=ops)
    assert response.status_code == 200, response.text
    assert (await admin.get(path(feature))).json()["description"] == "with a slash"
    missing = await admin.get("/api/admin/nope/")
    assert missing.status_code == 404
    assert (
        missing.json()["message"]
        == "The path you were looking for (/api/admin/nope/) is not available."
    )
