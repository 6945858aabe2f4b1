"""An action that needs a flag, run from the palette on the sandbox AND a real Unleash: the flag
picker is fed by the server's search (real Unleash: 15 searches a minute; the picker sends one
per pause in typing, within the area's project, so the client can answer from the project's
list once the budget is spent)."""

from __future__ import annotations

import uuid

from textual.widgets import Input

from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.flag_picker import FlagPickerModal
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.widgets.confirm import ConfirmModal

from .areas import settle
from .helpers import toast_text, visible_text
from .palette_keys import run_from_palette, type_text
from .real_server import Server, a_feature


async def test_patch_from_the_palette_picks_the_flag_by_search(server: Server) -> None:
    name = await a_feature(server)
    text = f"Patched from the palette {uuid.uuid4().hex[:6]}"
    app = server.app("users")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await run_from_palette(app, pilot, "patch", "Patch a flag…")
        assert isinstance(app.screen, FlagPickerModal)
        await type_text(pilot, name)
        await settle(pilot)
        assert name in visible_text(app, "#flag-options")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PatchFormScreen)
        app.screen.query_one("#description", Input).value = text
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert text in visible_text(app, "#feature")
        assert "Request failed" not in toast_text(app)
    assert (await server.check.features.get(server.project, name)).description == text
