"""Two admins changing one feature type's lifetime at once (issue 43, item 3): the lifetime
form keeps the type it was opened on; another admin's change before the save stops it, shown
with who and when; reload shows theirs; "send mine anyway" saves what was typed, and the event
log holds both."""

from __future__ import annotations

from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.tui.screens.feature_types import FeatureTypesScreen, LifetimeModal
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle
from testkit.second_admin import second_admin

from .helpers import screen_text, visible_text


async def test_another_admins_lifetime_stops_the_save_then_reload_or_send_mine(
    make_app, client: AdminClient, sandbox
) -> None:
    token, who = second_admin(sandbox)
    other = AdminClient(sandbox.url, token, profile="other")
    app = make_app()
    async with other, app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index("release"))
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, LifetimeModal)
        form.query_one(Input).value = "90"
        await other.feature_types.update_lifetime("release", 7)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert "lifetimeDays: shown 40, now 7" in said and "nothing was sent" in said
        assert f"feature-type-updated by {who} at " in said
        assert {t.id: t for t in await client.feature_types.list()}["release"].lifetime_days == 7

        await pilot.click("#reload")
        await settle(app, pilot)
        assert app.screen is form and form.query_one(Input).value == "7"
        form.query_one(Input).value = "90"
        await other.feature_types.update_lifetime("release", 14)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, EditConflictModal)
        await pilot.click("#anyway")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
    assert {t.id: t for t in await client.feature_types.list()}["release"].lifetime_days == 90
    page = await client.events.search(type="feature-type-updated", limit=2)
    assert [e.created_by for e in page.events] == ["admin", who]
