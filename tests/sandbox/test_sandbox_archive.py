"""Archived features on the sandbox, as on real Unleash 8.2: archived by DELETE
/projects/:p/features/:f, found by the feature search's lifecycle filter, a 404 on the live
read, revived through POST /projects/:p/revive."""

from __future__ import annotations

import httpx

from tests.sandbox.conftest import a_feature, assert_error, events_of

SEARCH = "/api/admin/search/features"


def path(feature: dict) -> str:
    return f"/api/admin/projects/{feature['project']}/features/{feature['name']}"


async def archive(admin: httpx.AsyncClient, feature: dict) -> None:
    response = await admin.delete(path(feature))
    assert response.status_code == 202 and response.content == b""


async def names(admin: httpx.AsyncClient, query: str) -> list[str]:
    response = await admin.get(f"{SEARCH}?limit=100&{query}")
    assert response.status_code == 200
    return [f["name"] for f in response.json()["features"]]


async def test_lifecycle_archived_lists_archived_features(admin: httpx.AsyncClient) -> None:
    """Failed on old main: the filter was ANDed with "not archived" and returned nothing."""
    response = await admin.get(f"{SEARCH}?project=IS:payments&lifecycle=IS:archived&limit=100")
    body = response.json()
    assert body["total"] > 0
    assert all(f["archivedAt"] and f["project"] == "payments" for f in body["features"])
    old_style = await names(admin, "project=IS:payments&archived=IS:true")
    assert old_style == [f["name"] for f in body["features"]]


async def test_a_flag_archived_now_is_listed_and_its_live_read_is_404(
    admin: httpx.AsyncClient,
) -> None:
    feature = await a_feature(admin, "&lifecycle=IS:live")
    await archive(admin, feature)
    query = f"query={feature['name']}&project=IS:{feature['project']}"
    assert feature["name"] in await names(admin, f"{query}&lifecycle=IS:archived")
    assert feature["name"] not in await names(admin, query)
    # archived plus the live stages: both kinds, as real Unleash combines them
    both = await names(admin, f"project=IS:{feature['project']}&lifecycle=IS_ANY_OF:live,archived")
    assert feature["name"] in both
    response = await admin.get(path(feature))
    assert_error(response, 404, "NotFoundError")
    assert feature["name"] in response.json()["message"]


async def test_archive_records_its_event_and_stage_and_keeps_the_environments(
    admin: httpx.AsyncClient,
) -> None:
    feature = await a_feature(admin, "&lifecycle=IS:live")
    environments = (await admin.get(path(feature))).json()["environments"]
    await archive(admin, feature)
    query = f"query={feature['name']}&project=IS:{feature['project']}&lifecycle=IS:archived"
    row = (await admin.get(f"{SEARCH}?{query}")).json()["features"][0]
    assert row["lifecycle"]["stage"] == "archived"
    assert [(e["name"], e["enabled"]) for e in row["environments"]] == [
        (e["name"], e["enabled"]) for e in environments
    ]
    latest = (await events_of(admin, feature=feature["name"]))[0]
    assert latest["type"] == "feature-archived" and latest["project"] == feature["project"]
    # archived again, as real Unleash does: one more event (the client reads first)
    await archive(admin, feature)
    types = [e["type"] for e in await events_of(admin, feature=feature["name"])][:2]
    assert types == ["feature-archived", "feature-archived"]


async def test_archive_of_an_unknown_feature_is_404(
    admin: httpx.AsyncClient, viewer: httpx.AsyncClient
) -> None:
    assert_error(
        await admin.delete("/api/admin/projects/default/features/no-such-flag"),
        404,
        "NotFoundError",
    )
    feature = await a_feature(admin)
    assert_error(await viewer.delete(path(feature)), 403, "NoAccessError")
    assert (await admin.get(path(feature))).status_code == 200


async def test_revive_brings_archived_flags_back_to_initial_with_environments_off(
    admin: httpx.AsyncClient,
) -> None:
    feature = await a_feature(admin, "&lifecycle=IS:live")
    await archive(admin, feature)
    revive = f"/api/admin/projects/{feature['project']}/revive"
    body = {"features": [feature["name"], "no-such-flag"]}
    response = await admin.post(revive, json=body)
    assert response.status_code == 200 and response.content == b""
    live = (await admin.get(path(feature))).json()
    assert live["archived"] is False and live["archivedAt"] is None
    assert live["lifecycle"]["stage"] == "initial"
    assert not any(e["enabled"] for e in live["environments"])
    latest = (await events_of(admin, feature=feature["name"]))[0]
    assert latest["type"] == "feature-revived"
    before = len(await events_of(admin, feature=feature["name"]))
    assert (await admin.post(revive, json=body)).status_code == 200  # live: skipped
    assert len(await events_of(admin, feature=feature["name"])) == before


async def test_revive_refusals(admin: httpx.AsyncClient, viewer: httpx.AsyncClient) -> None:
    feature = await a_feature(admin, "&project=IS:payments")
    ok = {"features": [feature["name"]]}
    assert_error(await admin.post("/api/admin/projects/nope/revive", json=ok), 404, "NotFoundError")
    for bad in ({}, {"features": "x"}, {"features": [1]}, []):
        response = await admin.post("/api/admin/projects/payments/revive", json=bad)
        assert_error(response, 400, "ValidationError")
    response = await admin.post("/api/admin/projects/growth/revive", json=ok)
    assert_error(response, 403, "NoAccessError")
    response = await viewer.post("/api/admin/projects/payments/revive", json=ok)
    assert_error(response, 403, "NoAccessError")
