"""POST .../lifecycle/uncomplete."""

from __future__ import annotations

import httpx

from tests.sandbox.conftest import a_feature, assert_error, events_of


async def test_uncomplete_goes_back_to_the_previous_stage(admin: httpx.AsyncClient) -> None:
    feature = await a_feature(admin, "&lifecycle=IS:completed")
    base = f"/api/admin/projects/{feature['project']}/features/{feature['name']}"
    response = await admin.post(f"{base}/lifecycle/uncomplete")
    assert response.status_code == 200
    assert response.content == b""
    stage = (await admin.get(base)).json()["lifecycle"]["stage"]
    assert stage == "live"
    event = (await events_of(admin, feature=feature["name"]))[0]
    assert event["type"] == "feature-uncompleted"
    assert event["preData"]["stage"] == "completed"
    assert event["data"]["stage"] == "live"


async def test_uncomplete_on_a_feature_that_is_not_completed_changes_nothing(
    admin: httpx.AsyncClient,
) -> None:
    feature = await a_feature(admin, "&lifecycle=IS:pre-live")
    base = f"/api/admin/projects/{feature['project']}/features/{feature['name']}"
    before = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    assert (await admin.post(f"{base}/lifecycle/uncomplete")).status_code == 200
    assert (await admin.get(base)).json()["lifecycle"] == feature["lifecycle"]
    after = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    assert after == before


async def test_uncomplete_unknown_feature_is_404(admin: httpx.AsyncClient) -> None:
    response = await admin.post("/api/admin/projects/payments/features/nope/lifecycle/uncomplete")
    assert_error(response, 404, "NotFoundError")
    response = await admin.post("/api/admin/projects/nope/features/nope/lifecycle/uncomplete")
    assert_error(response, 404, "NotFoundError")
