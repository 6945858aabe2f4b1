"""The issue's reproduction on a real Unleash OSS: a feature whose description carries OSC 52 and
markup, and whose type is PATCHed to `[/x]` (Unleash accepts both), opened in flagtui."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from skip_reasons import NO_REAL_UNLEASH

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.patch_form import PatchFormScreen
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text
from .hostile import HOSTILE, MARKUP_TYPE, assert_shown_as_data

REAL_URL, REAL_TOKEN = os.environ.get("UNLEASH_URL"), os.environ.get("UNLEASH_API_TOKEN")
pytestmark = [
    pytest.mark.unleash,
    pytest.mark.skipif(not (REAL_URL and REAL_TOKEN), reason=NO_REAL_UNLEASH),
]
PROJECT = "default"


@pytest.fixture
async def hostile_flag() -> AsyncIterator[str]:
    """A fresh flag, made hostile through the admin API, removed afterwards."""
    assert REAL_URL and REAL_TOKEN
    headers = {"Authorization": REAL_TOKEN}
    async with httpx.AsyncClient(base_url=REAL_URL, headers=headers, timeout=30) as http:
        name = f"tui-hostile-{uuid.uuid4().hex[:10]}"
        features = f"/api/admin/projects/{PROJECT}/features"
        created = await http.post(features, json={"name": name, "type": "release"})
        assert created.status_code in (200, 201), created.text
        ops = [
            {"op": "replace", "path": "/description", "value": HOSTILE},
            {"op": "replace", "path": "/type", "value": MARKUP_TYPE},
        ]
        patched = await http.patch(f"{features}/{name}", json=ops)
        assert patched.status_code == 200, patched.text
        try:
            yield name
        finally:
            await http.delete(f"{features}/{name}")


async def test_hostile_flag_on_real_unleash(hostile_flag: str, tmp_path: Path) -> None:
    """Before the fix: the escape sequences reach the terminal in the detail, and the patch form
    ends the app with MarkupError (the issue's reproduction)."""
    assert REAL_URL and REAL_TOKEN
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"real": {"area": "feature-types", "project": PROJECT}}))
    async with AdminClient(REAL_URL, REAL_TOKEN, profile="real") as client:
        app = FlagtuiApp(client, Profile(name="real", url=REAL_URL), state_path=state)
        async with app.run_test(size=(100, 40), notifications=True) as pilot:
            await settle(app, pilot)
            app.push_screen(FeatureDetailScreen(PROJECT, hostile_flag))
            await settle(app, pilot)
            assert_shown_as_data(visible_text(app, "#feature"))
            await pilot.press("e")
            await settle(app, pilot)
            assert isinstance(app.screen, PatchFormScreen)
            assert MARKUP_TYPE in screen_text(app) and "\x1b" not in screen_text(app)
            await pilot.press("ctrl+r")  # untouched: nothing to send
            await settle(app, pilot)
            assert "Nothing changed" in visible_text(app, "#form-error")
            assert "Request failed" not in toast_text(app)
        feature = await client.features.get(PROJECT, hostile_flag)
        assert feature.description == HOSTILE and feature.type == MARKUP_TYPE
