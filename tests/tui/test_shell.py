"""The shell: header, area switching, help, palette, read-only lock, remembered state."""

from __future__ import annotations

import json

from textual.system_commands import SystemCommandsProvider

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.connect import ConnectScreen
from flagtui.tui.screens.feature_types import FeatureTypesScreen
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.help import HelpScreen
from testkit.pilot import settle

from .helpers import toast_text, visible_text


async def test_app_starts_and_header_shows_profile_and_server(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        text = visible_text(app, "FlagtuiHeader")
        assert "sandbox" in text
        assert app.client.server is not None
        assert app.client.server.label in text
        assert "RO" not in text
        assert isinstance(app.screen, FeaturesScreen)


async def test_read_only_and_production_profiles_look_different(make_app) -> None:
    app = make_app(read_only=True, production=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        text = visible_text(app, "FlagtuiHeader")
        assert "🔒 RO" in text
        assert "PRODUCTION" in text
        assert app.screen.query_one(FlagtuiHeader).has_class("-production")


async def test_area_keys_switch_and_the_area_is_remembered(make_app, tmp_path) -> None:
    state = tmp_path / "ui.json"
    app = make_app(state_path=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
    assert json.loads(state.read_text())["sandbox"]["area"] == "feature-types"
    again = make_app(state_path=state)
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(again, pilot)
        assert isinstance(again.screen, FeatureTypesScreen)


async def test_help_lists_the_screen_and_app_keys(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        actions = {description for _, description, _ in app.screen.rows}
        assert {"Open", "Page", "Help", "Quit", "Feature types"} <= actions
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, FeaturesScreen)


async def test_palette_offers_every_area_and_the_screen_actions(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        provider = SystemCommandsProvider(app.screen)
        titles = [hit.text async for hit in provider.discover()]
        assert "Go to Feature types" in titles
        assert "Go to Project environments" in titles
        assert "Open" in titles
        hits = [hit async for hit in provider.search("types")]
        assert hits and hits[0].text == "Go to Feature types"
        hits[0].command()
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)


async def test_unreachable_server_shows_the_error_and_can_retry(tmp_path) -> None:
    profile = Profile(name="gone", url="http://127.0.0.1:9")
    client = AdminClient(profile.url, "token", profile="gone", retry_delays=())
    app = FlagtuiApp(client, profile, state_path=tmp_path / "s.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, ConnectScreen)
        status = visible_text(app, "#connect-status")
        assert "GET /api/admin/ui-config (profile gone) failed: Unreachable" in status
        assert "⚠ not answering since" in visible_text(app, "FlagtuiHeader")
        # The features area was built and read meanwhile; its failures are not said twice.
        assert "Request failed" not in toast_text(app)
    await client.aclose()
