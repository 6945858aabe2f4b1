"""An area a real server's version cannot serve says which version it needs, as the Enterprise
areas say they need Enterprise: one sentence in the status line, no failed read to retry, no
error toast. CI runs it on Unleash 5.12.8 (deliveries came in 6.1); newer servers skip it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from skip_reasons import NO_REAL_UNLEASH

from flagtui.api import AdminClient
from flagtui.api.capabilities import parse_version
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text

REAL_URL, REAL_TOKEN = os.environ.get("UNLEASH_URL"), os.environ.get("UNLEASH_API_TOKEN")
pytestmark = [
    pytest.mark.unleash,
    pytest.mark.skipif(
        not (REAL_URL and REAL_TOKEN),
        reason=NO_REAL_UNLEASH,
    ),
]
HOOK = "flagtui versions hook"


async def _an_integration(http: httpx.AsyncClient) -> None:
    """One switched-off webhook, so that the areas read its deliveries (reused across runs)."""
    addons = (await http.get("/api/admin/addons")).json()["addons"]
    if any(a.get("description") == HOOK for a in addons):
        return
    created = await http.post(
        "/api/admin/addons",
        json={
            "provider": "webhook",
            "enabled": False,
            "description": HOOK,
            "parameters": {"url": "http://127.0.0.1:9/never"},
            "events": ["feature-created"],
        },
    )
    assert created.status_code in (200, 201), created.text


async def test_areas_a_version_cannot_serve_say_which_version_they_need(tmp_path: Path) -> None:
    assert REAL_URL and REAL_TOKEN
    async with httpx.AsyncClient(
        base_url=REAL_URL, headers={"Authorization": REAL_TOKEN}, timeout=30
    ) as http:
        version = (await http.get("/api/admin/ui-config")).json()["versionInfo"]["current"]["oss"]
        if (parse_version(version) or (0, 0, 0)) >= (6, 1, 0):
            pytest.skip(f"Unleash {version} serves every area flagtui reads")
        await _an_integration(http)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"unleash": {"area": "integrations", "project": "default"}}))
    client = AdminClient(REAL_URL, REAL_TOKEN, profile="unleash")
    app = FlagtuiApp(client, Profile(name="unleash", url=REAL_URL), state_path=state)
    said = f"Integration deliveries need Unleash 6.1 (this server is OSS {version})."
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await settle(app, pilot, failures=True)
            assert HOOK in screen_text(app)
            for key, status in (("4", "#integrations-status"), ("5", "#failures-status")):
                await pilot.press(key)
                await settle(app, pilot, failures=True)
                assert visible_text(app, status).strip() == said
                assert "Request failed" not in toast_text(app)
    finally:
        await client.aclose()
