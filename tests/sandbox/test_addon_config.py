"""PUT /api/admin/addons/:id, as real Unleash 8.2 answers it: the whole configuration replaced,
masked secrets kept, `addon-config-updated` recorded, and a disabled integration delivers
nothing."""

from __future__ import annotations

import socket
import sqlite3

import pytest

from tests.sandbox.conftest import events_of


async def addon(client, addon_id: int) -> dict:
    answer = (await client.get("/api/admin/addons")).json()
    return next(a for a in answer["addons"] if a["id"] == addon_id)


def writable(record: dict) -> dict:
    keys = ("provider", "enabled", "description", "parameters", "events", "projects")
    return {k: record[k] for k in (*keys, "environments")}


def stored_parameters(sandbox_app, addon_id: int) -> str:
    with sqlite3.connect(sandbox_app.state.db_path) as conn:
        return conn.execute("SELECT parameters FROM addons WHERE id = ?", (addon_id,)).fetchone()[0]


async def test_disable_keeps_masked_secrets_and_records_the_change(admin, sandbox_app):
    before = await addon(admin, 1)
    secrets = stored_parameters(sandbox_app, 1)
    body = {**writable(before), "enabled": False, "id": 1, "createdAt": "ignored"}
    answer = await admin.put("/api/admin/addons/1", json=body)
    assert answer.status_code == 200
    assert answer.json() == {**before, "enabled": False}
    assert (await addon(admin, 1))["enabled"] is False
    assert stored_parameters(sandbox_app, 1) == secrets  # "*****" kept the stored values
    event = (await events_of(admin, type="addon-config-updated"))[0]
    assert event["data"] == {k: v for k, v in answer.json().items() if k != "parameters"}
    assert event["preData"] == {k: v for k, v in before.items() if k != "parameters"}


async def test_a_disabled_integration_delivers_nothing(admin):
    webhook = await addon(admin, 1)
    await admin.put("/api/admin/addons/1", json={**writable(webhook), "enabled": False})
    # The newest delivery's id: the sandbox forgets older ones at each recording, like Unleash.
    newest = (await admin.get("/api/admin/addons/1/events")).json()["integrationEvents"][0]["id"]
    flag = "/api/admin/projects/default/features/admin-async-emails"
    patched = await admin.patch(
        flag, json=[{"op": "replace", "path": "/description", "value": "x"}]
    )
    assert patched.status_code == 200
    after = (await admin.get("/api/admin/addons/1/events")).json()["integrationEvents"]
    assert after[0]["id"] == newest
    await admin.put("/api/admin/addons/1", json={**writable(webhook), "enabled": True})
    await admin.patch(flag, json=[{"op": "replace", "path": "/description", "value": "y"}])
    after = (await admin.get("/api/admin/addons/1/events")).json()["integrationEvents"]
    assert after[0]["event"]["data"]["description"] == "y"


async def test_unknown_id_is_404_before_the_body_is_read(admin):
    answer = await admin.put("/api/admin/addons/999", json={"nonsense": True})
    assert answer.status_code == 404
    assert answer.json()["name"] == "NotFoundError"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"provider": "carrier-pigeon"}, "Addon provider carrier-pigeon is not known"),
        ({"enabled": "no"}, '"enabled" must be a boolean'),
        ({"events": "feature-created"}, '"events" must be a list of strings'),
        ({"parameters": {"contentType": "x"}}, 'Missing required parameter "url"'),
    ],
)
async def test_bad_configurations_are_400(admin, change, message):
    before = await addon(admin, 1)
    answer = await admin.put("/api/admin/addons/1", json={**writable(before), **change})
    assert answer.status_code == 400
    assert answer.json()["message"] == message
    assert await addon(admin, 1) == before


async def test_viewers_may_not_change_integrations(viewer, admin):
    before = await addon(admin, 1)
    answer = await viewer.put("/api/admin/addons/1", json={**writable(before), "enabled": False})
    assert answer.status_code == 403
    assert (await addon(admin, 1))["enabled"] is True


NEW = {
    "provider": "webhook",
    "parameters": {"url": "https://hooks.example.test/new"},
    "events": ["feature-created"],
}


async def test_create_answers_the_record_masked_and_records_it_without_parameters(
    admin, sandbox_app
):
    answer = await admin.post("/api/admin/addons", json={**NEW, "unknown": "dropped"})
    assert answer.status_code == 201  # as real Unleash 6.10.1 to 8.2.0 answer it
    created = answer.json()
    assert created["parameters"]["url"] == "*****"
    assert (created["enabled"], created["events"], created["projects"]) == (
        True,
        ["feature-created"],
        [],
    )
    assert "unknown" not in created
    assert "hooks.example.test/new" in stored_parameters(sandbox_app, created["id"])
    event = (await events_of(admin, type="addon-config-created"))[0]
    assert event["data"] == {k: v for k, v in created.items() if k != "parameters"}


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({**NEW, "provider": "nosuch"}, "nosuch"),
        ({**NEW, "parameters": {}}, "url"),
        ({**NEW, "events": "feature-created"}, "events"),
        ({k: v for k, v in NEW.items() if k != "provider"}, "provider"),
    ],
)
async def test_create_refuses_a_bad_body_with_400_naming_it(admin, body, said):
    answer = await admin.post("/api/admin/addons", json=body)
    assert answer.status_code == 400
    assert said in answer.text
    assert await events_of(admin, type="addon-config-created") == []


async def test_delete_removes_it_and_its_deliveries_and_records_the_id(admin, sandbox_app):
    assert (await admin.get("/api/admin/addons/1/events")).json()["integrationEvents"]
    answer = await admin.delete("/api/admin/addons/1")
    assert answer.status_code == 200
    listed = (await admin.get("/api/admin/addons")).json()["addons"]
    assert all(a["id"] != 1 for a in listed)
    with sqlite3.connect(sandbox_app.state.db_path) as conn:
        left = conn.execute("SELECT count(*) FROM integration_events WHERE addon_id = 1")
        assert left.fetchone()[0] == 0
    event = (await events_of(admin, type="addon-config-deleted"))[0]
    assert event["preData"] == {"id": 1}


@pytest.mark.parametrize("addon_id", ["99999", "abc"])
async def test_delete_of_an_unknown_id_is_404(admin, addon_id):
    answer = await admin.delete(f"/api/admin/addons/{addon_id}")
    assert answer.status_code == 404
    assert await events_of(admin, type="addon-config-deleted") == []


async def test_a_created_webhook_to_a_dead_loopback_port_fails_every_delivery(admin):
    """As on real Unleash (loopback targets allowed): a port nothing listens on fails each
    POST, said as 8.2 says it; one that listens succeeds."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        live = listening.getsockname()[1]
        with socket.create_server(("127.0.0.1", 0)) as closed:
            dead = closed.getsockname()[1]
        ids = {}
        for name, port in (("dead", dead), ("live", live)):
            body = {
                **NEW,
                "events": ["feature-metadata-updated"],
                "parameters": {"url": f"http://127.0.0.1:{port}/{name}"},
            }
            ids[name] = (await admin.post("/api/admin/addons", json=body)).json()["id"]
    flag = "/api/admin/projects/default/features/admin-async-emails"
    await admin.patch(flag, json=[{"op": "replace", "path": "/description", "value": "z"}])
    states = {}
    for name, addon_id in ids.items():
        events = (await admin.get(f"/api/admin/addons/{addon_id}/events")).json()
        (delivery,) = events["integrationEvents"]
        states[name] = (delivery["state"], delivery["stateDetails"])
    assert states == {
        "dead": ("failed", "Webhook request failed with status code: 500"),
        "live": ("success", "Webhook request was successful with status code: 200"),
    }
