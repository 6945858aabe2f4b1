"""A tag added to a real flag shows in its detail: real Unleash (6.10 to 8.2) leaves `tags` out
of the flag's payload, so the detail reads the flag's tag list (7.5.1 was the report)."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import httpx
import pytest
from skip_reasons import NO_REAL_UNLEASH

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen

from .areas import settle
from .helpers import visible_text

REAL_URL, REAL_TOKEN = os.environ.get("UNLEASH_URL"), os.environ.get("UNLEASH_API_TOKEN")
pytestmark = [
    pytest.mark.unleash,
    pytest.mark.skipif(
        not (REAL_URL and REAL_TOKEN),
        reason=NO_REAL_UNLEASH,
    ),
]


async def test_a_tag_added_through_the_api_shows_in_the_detail(tmp_path: Path) -> None:
    assert REAL_URL and REAL_TOKEN
    url = REAL_URL.rstrip("/")
    name = f"tui-tags-{uuid.uuid4().hex[:10]}"
    value = f"tagged-{uuid.uuid4().hex[:6]}"
    async with httpx.AsyncClient(
        base_url=url, headers={"Authorization": REAL_TOKEN}, timeout=30
    ) as admin:
        created = await admin.post("/api/admin/projects/default/features", json={"name": name})
        assert created.status_code in (200, 201), created.text
        try:
            tagged = await admin.post(
                f"/api/admin/features/{name}/tags", json={"type": "simple", "value": value}
            )
            assert tagged.status_code in (200, 201), tagged.text
            payload = (await admin.get(f"/api/admin/projects/default/features/{name}")).json()
            assert "tags" not in payload  # what the detail has to make up for
            state = tmp_path / "state.json"
            state.write_text(json.dumps({"real": {"area": "feature-types", "project": "default"}}))
            async with AdminClient(url, REAL_TOKEN, profile="real") as client:
                app = FlagtuiApp(client, Profile(name="real", url=url), state_path=state)
                async with app.run_test(size=(100, 60)) as pilot:
                    await settle(pilot)
                    app.push_screen(FeatureDetailScreen("default", name))
                    await settle(pilot)
                    text = visible_text(app, "#feature")
            tags_section = text.split("Tags", 1)[1].split("Dependencies", 1)[0]
            assert f"simple:{value}" in tags_section, text
        finally:  # archived, never deleted (see tests/conformance/conftest.py)
            await admin.delete(f"/api/admin/projects/default/features/{name}")
