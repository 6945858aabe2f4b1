"""Project access (Enterprise, operation 4): pick roles, users and groups; confirm; granted."""

from __future__ import annotations

from textual.widgets import SelectionList

from flagtui.api.models import ServerInfo
from flagtui.tui.screens.access import AccessScreen
from flagtui.tui.widgets.confirm import ConfirmModal

from .access_flows import fill_form
from .areas import app_in, settle
from .helpers import toast_text, visible_text


async def test_grant_reaches_the_server(make_app, client, tmp_path) -> None:
    ada = (await client.users.search("lovelace")).users[0]
    owner = next(r for r in await client.access.list_roles() if r.name == "Owner")
    sre = next(g for g in await client.access.list_groups() if g.name == "Platform SRE")
    app = app_in(make_app, tmp_path, "access")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await fill_form(app, pilot, "lovelace", owner.id, sre.id)
        summary = " ".join(visible_text(app, "#access-summary").split())
        assert summary == (
            "Grant Owner to 1 user (Ada Lovelace) and 1 group (Platform SRE) in project payments"
        )
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AccessScreen)
        assert app.screen.query_one("#roles", SelectionList).selected == []
        assert app.screen.chosen_users == {}
        assert "Granted Owner to 1 user (Ada Lovelace)" in toast_text(app)
    access = await client.access.get("payments")
    users = {u.id: u for u in access.users}
    groups = {g.id: g for g in access.groups}
    assert owner.id in users[ada.id].roles
    assert owner.id in groups[sre.id].roles


async def test_failed_grant_keeps_the_form(make_app, client, tmp_path) -> None:
    member = next(r for r in await client.access.list_roles() if r.name == "Member")
    app = app_in(make_app, tmp_path, "access", viewer=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await fill_form(app, pilot, "lovelace", member.id, None)
        await pilot.press("ctrl+s", "enter")
        await settle(pilot)
        assert "403" in toast_text(app)
        assert app.screen.query_one("#roles", SelectionList).selected == [member.id]
        assert len(app.screen.chosen_users) == 1


async def test_read_only_profile_cannot_grant(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "access", read_only=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert app.screen.check_action("grant", ()) is False
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, AccessScreen)
        # Before the fix: the key did nothing, without a word.
        assert "profile sandbox is read-only" in toast_text(app)


async def test_oss_server_shows_the_not_supported_sentence(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "users")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.client.server = ServerInfo(version="8.2.0", edition="oss")
        await pilot.press("8")
        await settle(pilot)
        status = visible_text(app, "#area-status").strip()
        assert status == "Project access needs Unleash Enterprise (this server is OSS 8.2.0)."
        assert not app.screen.query_one("#access-form").display
        assert not toast_text(app)
        # Before the fix: the grant key was offered on a server without project access.
        assert "Grant" not in visible_text(app, "KeyBar")
