"""A webhook integration on real Unleash that always fails (it posts to a closed loopback port),
for the conformance suite and the TUI flows."""

from __future__ import annotations

import time
import uuid

import httpx
import pytest

DELIVERY_WAIT_S = 120


def create_failing_webhook(http: httpx.Client, label: str, slug: str) -> int:
    """Create the webhook and wait for its first (failed) delivery; its id.

    Real Unleash caches the list of integrations for a minute, so a new one may miss events for
    that long: a flag's description is changed again every 3 s until a delivery is recorded
    (bounded at DELIVERY_WAIT_S).
    """
    addon = http.post(
        "/api/admin/addons",
        json={
            "provider": "webhook",
            "description": f"flagtui {label}: always fails",
            "enabled": True,
            "parameters": {"url": f"http://127.0.0.1:9/{slug}"},
            "events": ["feature-metadata-updated"],
            "projects": [],
            "environments": [],
        },
    )
    assert addon.status_code in (200, 201), addon.text
    addon_id: int = addon.json()["id"]
    name = f"{slug}-{uuid.uuid4().hex[:8]}"
    http.post("/api/admin/projects/default/features", json={"name": name})
    deadline = time.monotonic() + DELIVERY_WAIT_S
    attempt = 0
    while time.monotonic() < deadline:
        attempt += 1
        http.patch(
            f"/api/admin/projects/default/features/{name}",
            json=[{"op": "replace", "path": "/description", "value": f"try {attempt}"}],
        )
        time.sleep(3)
        if http.get(f"/api/admin/addons/{addon_id}/events").json()["integrationEvents"]:
            return addon_id
    pytest.fail(f"real Unleash recorded no webhook delivery within {DELIVERY_WAIT_S} s")


# Real Unleash 8.2.0 keeps delivering to a deleted integration for about a minute (it caches
# the list) and then ends on a foreign key violation: tests switch integrations off, never
# delete them.
WRITABLE = ("provider", "description", "parameters", "events", "projects", "environments")


def switched_off(addon: dict[str, object]) -> dict[str, object]:
    """The PUT body that keeps the integration's configuration and switches it off (masked
    secrets sent back as listed: the server keeps the stored ones)."""
    return {k: addon[k] for k in WRITABLE if addon.get(k) is not None} | {"enabled": False}


def retire_webhook(http: httpx.Client, addon_id: int) -> None:
    addon = http.get(f"/api/admin/addons/{addon_id}")
    if addon.status_code == 200:
        http.put(f"/api/admin/addons/{addon_id}", json=switched_off(addon.json()))


async def retire_webhook_async(http: httpx.AsyncClient, addon_id: int) -> None:
    addon = await http.get(f"/api/admin/addons/{addon_id}")
    if addon.status_code == 200:
        await http.put(f"/api/admin/addons/{addon_id}", json=switched_off(addon.json()))
