"""Users (operation 7): search as you type from 2 characters, debounced."""

from __future__ import annotations

from flagtui.tui import typing_pause
from flagtui.tui.screens.users import UsersScreen
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, rows, settle
from .helpers import BURST_PAUSE_S, visible_text


async def test_search_shows_what_the_client_finds(make_app, client, tmp_path) -> None:
    expected = await client.users.search("ma")
    roles = {r.id: r.name for r in expected.root_roles}
    app = app_in(make_app, tmp_path, "users")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UsersScreen)
        before = app.client.requests_sent
        await pilot.press("s", "m")
        await settle(pilot)
        assert app.client.requests_sent == before  # one character: a hint, no request
        assert "at least 2" in visible_text(app, "#users-status")
        await pilot.press("a")
        await settle(pilot)
        assert app.client.requests_sent == before + 1
        table = app.screen.query_one(ResourceTable)
        assert [r.key.value for r in table.ordered_rows] == [str(u.id) for u in expected.users]
        shown_roles = [row[3] for row in rows(app)]
        assert shown_roles == [roles.get(u.root_role, str(u.root_role)) for u in expected.users]
        assert "Root roles:" in visible_text(app, "#root-roles")


async def test_typing_fast_sends_one_request(make_app, tmp_path, monkeypatch) -> None:
    # A loaded machine may leave 0.4 s between two of the pilot's keys, which is a pause in
    # typing: made long enough here that the nine keys are one burst however busy it is.
    monkeypatch.setattr(typing_pause, "TYPING_PAUSE_S", BURST_PAUSE_S)
    app = app_in(make_app, tmp_path, "users")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.client.requests_sent
        await pilot.press("s", *"lovelace")
        await settle(pilot)
        assert app.client.requests_sent == before + 1
        assert app.screen.query_one(ResourceTable).row_count == 1
