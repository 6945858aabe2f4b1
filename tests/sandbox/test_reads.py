"""User search, event searches, integration events, and the browse reads."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.conftest import a_feature, assert_error, events_of


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("ad", "admin@acme.example"),
        ("LOVELACE", "ada.lovelace@acme.example"),
        ("BJÖRN", "björn.andersson@acme.example"),
        ("LMURPH", "liam.murphy@acme.example"),
    ],
)
async def test_user_search(viewer: httpx.AsyncClient, q: str, expected: str) -> None:
    response = await viewer.get("/api/admin/user-admin/search", params={"q": q})
    assert response.status_code == 200
    body = response.json()
    assert expected in [u["email"] for u in body["users"]]
    assert all(
        q.casefold()
        in (u["name"] or "").casefold() + (u["email"]).casefold() + (u["username"] or "").casefold()
        for u in body["users"]
    )
    assert [r["id"] for r in body["rootRoles"]][:3] == [1, 2, 3]


@pytest.mark.parametrize("q", ["", "a"])
async def test_user_search_needs_two_characters(viewer: httpx.AsyncClient, q: str) -> None:
    response = await viewer.get("/api/admin/user-admin/search", params={"q": q})
    assert_error(response, 400, "ValidationError")


@pytest.mark.parametrize(("limit", "status"), [(0, 400), (1, 200), (100, 200), (101, 400)])
async def test_event_search_limit(admin: httpx.AsyncClient, limit: int, status: int) -> None:
    response = await admin.post("/api/admin/events/search", json={"limit": limit})
    assert response.status_code == status
    if status == 200:
        body = response.json()
        assert body["version"] == 1 and len(body["events"]) == limit
        assert body["totalEvents"] == 6004  # 6000 seeded, 4 of the hostile project


@pytest.mark.parametrize(
    "body", [{"limit": "abc"}, {"offset": -1}, {"type": 5}, {"type": "no-such-type"}, [], "x"]
)
async def test_event_search_validates_types(admin: httpx.AsyncClient, body: object) -> None:
    response = await admin.post("/api/admin/events/search", json=body)
    assert_error(response, 400, "ValidationError")


async def test_event_search_filters_and_pages_by_event_id(admin: httpx.AsyncClient) -> None:
    first = (await admin.post("/api/admin/events/search", json={"limit": 10})).json()
    ids = [e["id"] for e in first["events"]]
    assert ids == sorted(ids, reverse=True) and ids[0] == 6004
    page = (await admin.post("/api/admin/events/search", json={"limit": 5, "offset": 100})).json()
    assert [e["id"] for e in page["events"]] == [100, 99, 98, 97, 96]
    assert page["totalEvents"] == 6004
    typed = (
        await admin.post(
            "/api/admin/events/search", json={"type": "feature-tagged", "project": "payments"}
        )
    ).json()
    assert typed["events"] and all(
        e["type"] == "feature-tagged" and e["project"] == "payments" for e in typed["events"]
    )
    assert typed["totalEvents"] < 6004
    feature = typed["events"][0]["featureName"]
    exact = await events_of(admin, feature=feature)
    assert exact and all(e["featureName"] == feature for e in exact)
    assert await events_of(admin, feature=feature.upper()) == []
    text = (await admin.post("/api/admin/events/search", json={"query": "FEATURE-TAGGED"})).json()
    assert text["totalEvents"] >= typed["totalEvents"]


async def test_get_event_search(admin: httpx.AsyncClient) -> None:
    body = (
        await admin.get(
            "/api/admin/search/events?type=IS_ANY_OF:feature-created,feature-tagged&limit=20&offset=5"
        )
    ).json()
    assert len(body["events"]) == 20
    assert {e["type"] for e in body["events"]} <= {"feature-created", "feature-tagged"}
    day = body["events"][0]["createdAt"][:10]
    dated = (await admin.get(f"/api/admin/search/events?from=IS:{day}&to=IS:{day}")).json()
    assert dated["total"] > 0 and all(e["createdAt"][:10] == day for e in dated["events"])


async def test_writes_are_delivered_to_subscribed_integrations(admin: httpx.AsyncClient) -> None:
    addons = (await admin.get("/api/admin/addons")).json()
    flaky = next(a for a in addons["addons"] if a["description"].startswith("Legacy audit"))
    assert flaky["parameters"]["url"] == "*****"
    assert "feature-type-updated" in flaky["events"]
    await admin.put("/api/admin/feature-types/release/lifetime", json={"lifetimeDays": 9})
    event = (await events_of(admin, type="feature-type-updated"))[0]
    deliveries = (await admin.get(f"/api/admin/addons/{flaky['id']}/events")).json()
    newest = deliveries["integrationEvents"][0]
    assert newest["event"]["id"] == event["id"] and newest["integrationId"] == flaky["id"]
    assert newest["state"] in ("success", "failed")
    datadog = next(a for a in addons["addons"] if a["provider"] == "datadog")
    history = (await admin.get(f"/api/admin/addons/{datadog['id']}/events")).json()
    assert history["integrationEvents"][0]["event"]["id"] != event["id"]
    assert history["integrationEvents"][0]["stateDetails"].endswith("status code: 403")


async def test_integration_history_has_failures(admin: httpx.AsyncClient) -> None:
    seen = set()
    for addon in (await admin.get("/api/admin/addons")).json()["addons"]:
        page = (await admin.get(f"/api/admin/addons/{addon['id']}/events?limit=100")).json()
        seen |= {e["state"] for e in page["integrationEvents"]}
        ids = [int(e["id"]) for e in page["integrationEvents"]]
        assert ids == sorted(ids, reverse=True)
    assert seen == {"success", "failed", "successWithErrors"}


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("", 50),
        ("limit=0", 50),
        ("limit=1", 1),
        ("limit=100", 100),
        ("limit=101", 50),
        ("offset=0&limit=3", 3),
    ],
)
async def test_addon_events_paging(admin: httpx.AsyncClient, query: str, count: int) -> None:
    response = await admin.get(f"/api/admin/addons/2/events?{query}")
    assert response.status_code == 200
    assert len(response.json()["integrationEvents"]) == count


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("limit=-1", 50),
        ("limit=abc", 50),
        ("limit=", 50),
        ("limit=2.9", 2),
        ("limit=1e1", 10),
        ("limit=0x4", 4),
        ("limit=%203%20", 3),
        ("limit=Infinity", 50),
    ],
)
async def test_addon_events_limit_falls_back_as_real_unleash(
    admin: httpx.AsyncClient, query: str, count: int
) -> None:
    response = await admin.get(f"/api/admin/addons/2/events?{query}")
    assert response.status_code == 200
    assert len(response.json()["integrationEvents"]) == count


@pytest.mark.parametrize("offset", ["-1", "abc", "-Infinity", "Infinity", ""])
async def test_addon_events_offset_falls_back_to_0(admin: httpx.AsyncClient, offset: str) -> None:
    first = (await admin.get("/api/admin/addons/2/events?limit=3")).json()
    response = await admin.get(f"/api/admin/addons/2/events?limit=3&offset={offset}")
    assert response.json() == first


async def test_addon_events_offset_fraction_is_cut_off(admin: httpx.AsyncClient) -> None:
    whole = (await admin.get("/api/admin/addons/2/events?limit=3&offset=1")).json()
    response = await admin.get("/api/admin/addons/2/events?limit=3&offset=1.9")
    assert response.json() == whole


@pytest.mark.parametrize("addon", ["999", "abc"])
async def test_unknown_addon_is_404(admin: httpx.AsyncClient, addon: str) -> None:
    assert_error(await admin.get(f"/api/admin/addons/{addon}/events"), 404, "NotFoundError")


async def test_feature_search_filters(admin: httpx.AsyncClient) -> None:
    everything = (await admin.get("/api/admin/search/features?limit=100")).json()
    assert everything["total"] > 200 and all(
        f["archivedAt"] is None for f in everything["features"]
    )
    archived = (await admin.get("/api/admin/search/features?state=IS:archived")).json()
    assert archived["total"] > 0 and all(f["archivedAt"] for f in archived["features"])
    stale = (await admin.get("/api/admin/search/features?state=IS:stale&limit=100")).json()
    assert all(f["stale"] for f in stale["features"])
    potentially = (await admin.get("/api/admin/search/features?state=IS:potentially-stale")).json()
    assert potentially["total"] > 0 and all(
        f["archivedAt"] is None for f in potentially["features"]
    )
    kinds = (
        await admin.get(
            "/api/admin/search/features?type=IS_ANY_OF:kill-switch,permission&project=IS:payments&limit=100"
        )
    ).json()
    assert kinds["features"] and all(
        f["type"] in ("kill-switch", "permission") and f["project"] == "payments"
        for f in kinds["features"]
    )
    by_stage = (await admin.get("/api/admin/search/features?lifecycle=IS:completed")).json()
    assert by_stage["total"] > 0
    named = (await admin.get("/api/admin/search/features?query=CHECKOUT&limit=100")).json()
    assert named["features"] and all(
        "checkout" in (f["name"] + (f["description"] or "")).lower()
        or any("checkout" in t["value"] for t in f["tags"])
        for f in named["features"]
    )
    ordered = (
        await admin.get("/api/admin/search/features?sortBy=name&sortOrder=desc&limit=20")
    ).json()
    names = [f["name"] for f in ordered["features"]]
    assert names == sorted(names, reverse=True)


async def test_search_item_and_feature_shapes(admin: httpx.AsyncClient) -> None:
    item = await a_feature(admin)
    assert set(item) == {
        "name",
        "description",
        "type",
        "project",
        "stale",
        "favorite",
        "impressionData",
        "createdAt",
        "archivedAt",
        "lastSeenAt",
        "environments",
        "tags",
        "lifecycle",
        "createdBy",
        "dependencyType",
        "segments",
    }
    assert set(item["environments"][0]) == {
        "name",
        "enabled",
        "type",
        "sortOrder",
        "variantCount",
        "lastSeenAt",
        "hasStrategies",
        "hasEnabledStrategies",
    }
    full = (
        await admin.get(f"/api/admin/projects/{item['project']}/features/{item['name']}")
    ).json()
    assert full["lifecycle"] == item["lifecycle"]
    assert "potentiallyStale" not in full  # as on real Unleash: only the state filter knows
    assert set(full["createdBy"]) == {"id", "name", "imageUrl"}


async def test_demo_data_has_dependencies_and_constraints(admin: httpx.AsyncClient) -> None:
    children = (await admin.get("/api/admin/projects/payments/features")).json()["features"]
    child = next(f for f in children if f["dependencyType"] == "child")
    full = (await admin.get(f"/api/admin/projects/payments/features/{child['name']}")).json()
    parent = full["dependencies"][0]["feature"]
    parent_full = (await admin.get(f"/api/admin/projects/payments/features/{parent}")).json()
    assert child["name"] in parent_full["children"]
    strategies = [
        s
        for f in children[:80]
        for s in (await admin.get(f"/api/admin/projects/payments/features/{f['name']}")).json()[
            "environments"
        ][0]["strategies"]
    ]
    assert any(s["constraints"] for s in strategies)


async def test_browse_shapes(viewer: httpx.AsyncClient, admin: httpx.AsyncClient) -> None:
    projects = (await viewer.get("/api/admin/projects")).json()
    assert projects["version"] == 1
    assert {p["id"] for p in projects["projects"]} >= {"default", "payments", "mobile-app"}
    ui = (await viewer.get("/api/admin/ui-config")).json()
    assert ui["versionInfo"]["current"]["enterprise"] == "8.2.0" and ui["sandbox"] is True
    types = (await viewer.get("/api/admin/feature-types")).json()["types"]
    assert {t["id"]: t["lifetimeDays"] for t in types} == {
        "release": 40,
        "experiment": 40,
        "operational": 7,
        "kill-switch": None,
        "permission": None,
        "hx-type": 30,  # the hostile project's
    }
    roles = (await viewer.get("/api/admin/roles")).json()["roles"]
    assert {r["type"] for r in roles} == {"root", "root-custom", "project", "custom"}
    groups = (await viewer.get("/api/admin/groups")).json()["groups"]
    assert all(g["userCount"] == len(g["users"]) for g in groups)
    users = (await admin.get("/api/admin/user-admin")).json()
    assert len(users["users"]) == 43  # 3 of them hostile
    crs = [
        c
        for project in ("payments", "mobile-app", "platform", "search")
        for c in (await viewer.get(f"/api/admin/projects/{project}/change-requests")).json()
    ]
    scheduled = next(c for c in crs if c["state"] == "Scheduled")
    assert scheduled["schedule"]["scheduledAt"]


async def test_a_features_tag_list_is_its_tags_as_real_unleash_answers(
    admin: httpx.AsyncClient,
) -> None:
    feature = next(
        f
        for f in (await admin.get("/api/admin/projects/payments/features")).json()["features"]
        if f["tags"]
    )
    answer = await admin.get(f"/api/admin/features/{feature['name']}/tags")
    assert answer.status_code == 200
    assert answer.json() == {"version": 1, "tags": feature["tags"]}
    unknown = await admin.get("/api/admin/features/no-such-flag/tags")
    assert_error(unknown, 404, "NotFoundError")
    assert unknown.json()["message"] == "Could not find feature with name no-such-flag"
