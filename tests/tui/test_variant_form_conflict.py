"""Two admins editing one flag's environment variants at once (issue 43, item 3): the form
keeps the variants it was opened on; another admin's change before the send stops it, shown
with who and when; reload shows theirs, "send mine anyway" sends what was reviewed and the
event log holds both."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.api.models import Variant
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.pilot import settle
from testkit.second_admin import second_admin

from .helpers import screen_text, visible_text
from .variant_flows import PROJECT, holder, open_form


async def theirs(sandbox: Any, name: str, env: str, second: str = "theirs-b") -> str:
    """Another admin, with a profile of their own, sets two variants; their name."""
    token, who = second_admin(sandbox)
    async with AdminClient(sandbox.url, token, profile="other") as other:
        await other.connect()
        wanted = [Variant(name="theirs-a", weight=500), Variant(name=second, weight=500)]
        await other.rollouts.set_variants(PROJECT, name, env, wanted)
    return who


async def review_and_send(app: FlagtuiApp, pilot: Any) -> None:
    await pilot.press("ctrl+r")
    await settle(app, pilot)
    assert isinstance(app.screen, ConfirmModal), screen_text(app)
    await pilot.press("enter")
    await settle(app, pilot)


async def test_another_admins_variants_stop_the_send_then_reload_or_send_mine(
    make_app, client: AdminClient, sandbox
) -> None:
    name, env = await holder(client)
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        form = await open_form(app, pilot, name, env)
        form.rows[0].query_one(".v-name", Input).value = "mine"
        await settle(app, pilot)
        who = await theirs(sandbox, name, env)
        await review_and_send(app, pilot)
        assert isinstance(app.screen, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert "nothing was sent" in said and '"theirs-a"' in said
        assert f"feature-environment-variants-updated by {who} at " in said
        stored = await client.rollouts.variants(PROJECT, name, env)
        assert [v.name for v in stored] == ["theirs-a", "theirs-b"]  # nothing of theirs lost

        await pilot.click("#reload")
        await settle(app, pilot)
        assert app.screen is form
        assert [r.query_one(".v-name", Input).value for r in form.rows] == ["theirs-a", "theirs-b"]
        form.rows[0].query_one(".v-name", Input).value = "mine"
        other_send = await theirs(sandbox, name, env, "theirs-c")  # again, before this send
        await review_and_send(app, pilot)
        modal = app.screen
        assert isinstance(modal, EditConflictModal)
        if modal.typed is not None:  # a production environment: its name typed first
            modal.query_one("#typed", Input).value = modal.typed
            await settle(app, pilot)
        await pilot.click("#anyway")
        await settle(app, pilot)
        assert app.screen is not form
    stored = await client.rollouts.variants(PROJECT, name, env)
    assert [v.name for v in stored] == ["mine", "theirs-b"]
    page = await client.events.search(feature=name, limit=2)
    assert [(e.type, e.created_by) for e in page.events] == [
        ("feature-environment-variants-updated", "admin"),
        ("feature-environment-variants-updated", other_send),
    ]
