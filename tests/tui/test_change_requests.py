"""Change requests (Enterprise, operation 8): list per project, detail, delete after confirm."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Select

from flagtui.api.errors import NotFoundError
from flagtui.api.models import ServerInfo
from flagtui.tui.screens.change_requests import ChangeRequestDetailScreen, ChangeRequestsScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, settle
from .helpers import toast_text, visible_text


def keys(app) -> list[str]:
    return [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]


async def open_list(app, pilot) -> list[str]:
    await settle(pilot)
    assert isinstance(app.screen, ChangeRequestsScreen)
    assert app.screen.query_one("#project", Select).value == "payments"
    return keys(app)


async def test_list_detail_and_delete(make_app, client, tmp_path) -> None:
    expected = [str(cr.id) for cr in await client.change_requests.list("payments")]
    app = app_in(make_app, tmp_path, "change-requests")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await open_list(app, pilot) == expected
        target = expected[1]
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=1)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChangeRequestDetailScreen)
        assert f"#{target}" in visible_text(app, "#change-request")
        await pilot.press("escape", "d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        assert app.screen.focused is app.screen.query_one("#cancel", Button)
        await pilot.press("enter")  # Cancel: nothing happens
        await settle(pilot)
        assert keys(app) == expected
        await pilot.press("d", "tab", "enter")
        await settle(pilot)
        assert keys(app) == [k for k in expected if k != target]
    with pytest.raises(NotFoundError):
        await client.change_requests.get("payments", target)


async def test_viewer_delete_is_refused_with_the_servers_words(make_app, client, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "change-requests", viewer=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        before = await open_list(app, pilot)
        await pilot.press("d", "tab", "enter")
        await settle(pilot)
        said = toast_text(app)
        assert "403" in said and "NoAccessError" in said and "DELETE" in said
        assert keys(app) == before
    assert len(await client.change_requests.list("payments")) == len(before)


async def test_read_only_profile_hides_delete(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "change-requests", read_only=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_list(app, pilot)
        assert "d" not in {b.binding.key for b in app.screen.active_bindings.values() if b.enabled}
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ChangeRequestsScreen)
        # Before the fix: the key did nothing, without a word.
        assert "profile sandbox is read-only" in toast_text(app)


async def test_oss_server_shows_the_not_supported_sentence(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "users")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.client.server = ServerInfo(version="8.2.0", edition="oss")
        await pilot.press("9")
        await settle(pilot)
        status = visible_text(app, "#area-status").strip()
        assert status == "Change requests need Unleash Enterprise (this server is OSS 8.2.0)."
        assert not toast_text(app)
        # Before the fix: the delete key was offered on a server without change requests.
        assert "Delete" not in visible_text(app, "KeyBar")
        assert app.screen.check_action("delete", ()) is False
