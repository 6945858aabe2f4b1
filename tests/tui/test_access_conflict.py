"""A grant against another admin's change (issue 43, item 3): the Access form remembers who
held which role when it was shown; when another admin changed the roles of a user being
granted before the send, nothing is sent and the screen says what changed, by whom and when;
"send mine anyway" grants what was asked, theirs kept."""

from __future__ import annotations

from flagtui.api import AdminClient
from flagtui.tui.screens.access import AccessScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.second_admin import second_admin

from .access_flows import fill_form
from .areas import app_in, settle
from .helpers import screen_text, toast_text, visible_text


async def test_another_admins_grant_stops_mine_then_send_mine_anyway(
    make_app, client: AdminClient, sandbox, tmp_path
) -> None:
    ada = (await client.users.search("lovelace")).users[0]
    held = {u.id: u.roles for u in (await client.access.get("payments")).users}.get(ada.id, [])
    owner, theirs = [r for r in await client.access.list_roles()
                     if r.type != "root" and r.id not in held][:2]  # fmt: skip
    token, who = second_admin(sandbox)
    app = app_in(make_app, tmp_path, "access")
    other = AdminClient(sandbox.url, token, profile="other")
    async with other, app.run_test(size=(100, 30), notifications=True) as pilot:
        await fill_form(app, pilot, "lovelace", owner.id, None)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await other.access.grant("payments", roles=[theirs.id], users=[ada.id], groups=[])
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert "nothing was sent" in said and f"user {ada.id} (Ada Lovelace): shown" in said
        assert f'"{theirs.name}"' in said
        assert f"project-access-added by {who} at " in said
        now = {u.id: u.roles for u in (await client.access.get("payments")).users}
        assert owner.id not in now[ada.id] and theirs.id in now[ada.id]

        await pilot.click("#anyway")
        await settle(pilot)
        assert isinstance(app.screen, AccessScreen)
        assert f"Granted {owner.name} to 1 user (Ada Lovelace)" in toast_text(app)
    after = {u.id: u.roles for u in (await client.access.get("payments")).users}
    assert {owner.id, theirs.id} <= set(after[ada.id])  # theirs and mine


async def test_a_group_granted_since_is_named_on_the_conflict_screen(
    make_app, client: AdminClient, sandbox, tmp_path
) -> None:
    group = (await client.access.list_groups())[0]
    held = {g.id: g.roles for g in (await client.access.get("payments")).groups}
    owner, theirs = [r for r in await client.access.list_roles()
                     if r.type != "root" and r.id not in held.get(group.id, [])][:2]  # fmt: skip
    token, _who = second_admin(sandbox)
    app = app_in(make_app, tmp_path, "access")
    other = AdminClient(sandbox.url, token, profile="other")
    async with other, app.run_test(size=(100, 30), notifications=True) as pilot:
        await fill_form(app, pilot, "lovelace", owner.id, group.id)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await other.access.grant("payments", roles=[theirs.id], users=[], groups=[group.id])
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert f"group {group.id} ({group.name}): shown" in said
    now = {g.id: g.roles for g in (await client.access.get("payments")).groups}
    assert theirs.id in now[group.id] and owner.id not in now[group.id]  # nothing sent
