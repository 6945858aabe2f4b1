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
