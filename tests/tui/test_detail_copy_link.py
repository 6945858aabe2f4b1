"""`y` in a flag's detail copies the flag's page of Unleash's web UI (OSC 52, through
App.copy_to_clipboard) and says so in a toast; the flag stays as it was."""

from __future__ import annotations

from flagtui.api import AdminClient
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from testkit.pilot import settle

from .helpers import screen_text, toast_text

PROJECT, FLAG = "default", "admin-async-emails"


async def test_y_copies_the_flags_web_ui_link_and_says_so(make_app, client: AdminClient, sandbox):
    before = await client.features.get(PROJECT, FLAG)
    app: FlagtuiApp = make_app()
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, FLAG))
        await settle(app, pilot)
        assert FLAG in screen_text(app)
        await pilot.press("y")
        await settle(app, pilot)
        url = f"{sandbox.url}/projects/{PROJECT}/features/{FLAG}"
        assert app.clipboard == url
        assert f"Copied the flag's web UI link: {url}" in toast_text(app)
    assert await client.features.get(PROJECT, FLAG) == before
