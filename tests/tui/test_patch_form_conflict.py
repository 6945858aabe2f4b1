"""Two admins patching one flag at once (issue 43, item 3): the patch form keeps the flag it
was opened on; another admin's new description before the send stops it, shown with who and
when; reload shows theirs; "send mine anyway" sends the patch reviewed, and the event log
holds both."""

from __future__ import annotations

from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.pilot import settle
from testkit.second_admin import second_admin

from .faults import PROJECT, open_form, send_form
from .helpers import visible_text


async def test_another_admins_description_stops_the_patch_then_reload_or_send_mine(
    make_app, client: AdminClient, sandbox
) -> None:
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    token, who = second_admin(sandbox)
    app = make_app()
    other = AdminClient(sandbox.url, token, profile="other")
    async with other, app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, name)  # "typed by hand"
        description = [{"op": "replace", "path": "/description", "value": "theirs"}]
        await other.features.patch(PROJECT, name, description)
        await send_form(app, pilot)
        assert isinstance(app.screen, EditConflictModal)
        said = visible_text(app, ".dialog-body")
        assert 'description: shown "' in said and 'now "theirs"' in said
        assert f"feature-metadata-updated by {who} at " in said
        assert (await client.features.get(PROJECT, name)).description == "theirs"

        await pilot.click("#reload")
        await settle(app, pilot)
        assert app.screen is form
        assert form.query_one("#description", Input).value == "theirs"
        form.query_one("#description", Input).value = "mine"
        description[0]["value"] = "theirs again"
        await other.features.patch(PROJECT, name, description)
        await send_form(app, pilot)
        assert isinstance(app.screen, EditConflictModal)
        await pilot.click("#anyway")
        await settle(app, pilot)
        assert app.screen is not form
    assert (await client.features.get(PROJECT, name)).description == "mine"
    page = await client.events.search(feature=name, limit=2)
    assert [(e.type, e.created_by) for e in page.events] == [
        ("feature-metadata-updated", "admin"),
        ("feature-metadata-updated", who),
    ]
