"""The demo data's hostile project: every kind of record is served exactly as stored, control
characters, markup and BiDi included (the sandbox stores what it is given, like Unleash)."""

from __future__ import annotations

import httpx

from flagtui.sandbox import hostile_data as hx

FEATURE = "/api/admin/projects/hostile/features"


async def test_features_descriptions_types_and_tags_come_back_as_stored(
    admin: httpx.AsyncClient,
) -> None:
    for name, type_, description, tags in hx.FEATURES:
        feature = (await admin.get(f"{FEATURE}/{name}")).json()
        assert (feature["type"], feature["description"]) == (type_, description)
        assert feature["tags"] == tags
    long = (await admin.get(f"{FEATURE}/hx-long")).json()["description"]
    assert len(long) == hx.LONG_LENGTH
    markup = (await admin.get(f"{FEATURE}/hx-markup")).json()["description"]
    for piece in (hx.MARKUP, hx.OSC52, hx.OSC0, hx.CSI_CLEAR, hx.C1_CSI, hx.BIDI_TEXT, hx.EMOJI):
        assert piece in markup


async def test_project_users_groups_and_types_carry_hostile_text(admin: httpx.AsyncClient) -> None:
    projects = (await admin.get("/api/admin/projects")).json()["projects"]
    assert {p["id"]: p["name"] for p in projects}["hostile"] == hx.hostile(
        "hx-project", lines=False
    )
    found = (await admin.get("/api/admin/user-admin/search", params={"q": "hx-"})).json()
    assert {u["name"] for u in found["users"]} == {name for _, name, _, _ in hx.USERS}
    groups = (await admin.get("/api/admin/groups")).json()["groups"]
    assert hx.hostile("hx-group", lines=False) in {g["name"] for g in groups}
    types = (await admin.get("/api/admin/feature-types")).json()["types"]
    assert {t["id"]: t["name"] for t in types}["hx-type"] == hx.FEATURE_TYPE[1]


async def test_integration_deliveries_events_and_change_requests(admin: httpx.AsyncClient) -> None:
    addons = (await admin.get("/api/admin/addons")).json()["addons"]
    addon = next(a for a in addons if a["projects"] == ["hostile"])
    assert addon["description"] == hx.hostile("hx-addon", lines=False)
    deliveries = (await admin.get(f"/api/admin/addons/{addon['id']}/events")).json()
    first = deliveries["integrationEvents"][0]
    assert first["stateDetails"].startswith("hx-state-") and hx.OSC52 in first["stateDetails"]
    assert first["details"]["url"] == hx.WEBHOOK_URL
    events = (
        await admin.post("/api/admin/events/search", json={"project": "hostile", "limit": 10})
    ).json()["events"]
    assert len(events) == 4
    assert any(hx.OSC52 in e["data"].get("description", "") for e in events)
    crs = (await admin.get("/api/admin/projects/hostile/change-requests")).json()
    assert any(hx.CSI_CLEAR in cr["title"] for cr in crs)
