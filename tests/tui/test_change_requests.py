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


def keys(app) -> list[str]:
    return [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]


async def open_list(app, pilot) -> list[str]:
    await settle(pilot)
    assert isinstance(app.screen, ChangeRequestsScreen)
    assert app.screen.query_one("#project", Select).value == "payments"
    return keys(app)


async def test_list_detail_and_delete(make_app, client, tmp_path) -> None:
    expected = [str(cr.id) for cr in await client.list_change_requests("payments")]
    app = app_in(make_app, tmp_path, "change-requests")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await open_list(app, pilot) == expected
        target = expected[1]
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=1)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChangeRequestDetailScreen)
        assert f"#{target}" in str(app.screen.query_one("#change-request").render())
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
        await client.get_change_request("payments", target)


async def test_viewer_delete_is_refused_with_the_servers_words(make_app, client, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "change-requests", viewer=True)
    async with app.run_test(size=(80, 24)) as pilot:
        before = await open_list(app, pilot)
        await pilot.press("d", "tab", "enter")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert any("403" in m and "NoAccessError" in m and "DELETE" in m for m in messages)
        assert keys(app) == before
    assert len(await client.list_change_requests("payments")) == len(before)


async def test_read_only_profile_hides_delete(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "change-requests", read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_list(app, pilot)
        assert "d" not in {b.binding.key for b in app.screen.active_bindings.values() if b.enabled}
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ChangeRequestsScreen)


async def test_oss_server_shows_the_not_supported_sentence(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "users")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.client.server = ServerInfo(version="8.2.0", edition="oss")
        await pilot.press("9")
        await settle(pilot)
        status = str(app.screen.query_one("#area-status").render())
        assert status == "Change requests needs Unleash Enterprise (this server is OSS 8.2.0)."
        assert not app._notifications
