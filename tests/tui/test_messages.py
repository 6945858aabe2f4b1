"""Visible feedback (issue 11, item 3): every message line shows when it has text and takes no
room when it has none; read-only refusals say so; a refused field says why next to it."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response
from textual.widgets import Select

from flagtui.api import AdminClient
from flagtui.api.errors import ReadOnlyProfile
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.screens.base import describe_error
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.feature_types import LifetimeModal
from flagtui.tui.screens.patch_form import PatchFormScreen
from testkit.pilot import settle

from .areas import app_in
from .faults import PROJECT, open_form, send_form
from .helpers import screen_text, toast_text, visible_text

JSON = "application/json"
REFUSED_TYPE = '"type" must be the id of a known feature type'


async def test_lifetime_message_is_seen_next_to_the_input(make_app, tmp_path) -> None:
    """Before the fix: `.error-line:empty` hid the line whatever it said."""
    app = app_in(make_app, tmp_path, "feature-types")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, LifetimeModal)
        assert not app.screen.query_one("#lifetime-error").display  # no text, no room
        app.screen.query_one("#lifetime").value = "abc"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(app, pilot)
        said = visible_text(app, "#lifetime-error")
        assert "Not sent — lifetime: a whole number of days" in said
        field = app.screen.query_one("#lifetime").region
        assert app.screen.query_one("#lifetime-error").region.y == field.bottom


async def test_patch_form_messages_are_seen(make_app, client: AdminClient) -> None:
    """Before the fix: "Nothing changed" and an invalid raw patch were never on screen."""
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    app = make_app()
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, PatchFormScreen)
        assert visible_text(app, "#form-error") == ""
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "Nothing changed: no patch to send." in screen_text(app)
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        app.screen.query_one("#raw").text = "[{"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "Not sent — JSON: line 1" in visible_text(app, "#form-error")


async def test_refused_type_is_said_next_to_the_type(
    build: Any,
    faulty: Any,
    client: AdminClient,
) -> None:
    """Before the fix: the refusal was only in the (hidden) form line, not at the field."""
    server, fault = faulty
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    body = {
        "name": "ValidationError",
        "message": "Request validation failed",
        "details": [{"path": "/type", "message": REFUSED_TYPE}],
    }
    answer = json.dumps(body)
    fault.fail("PATCH", f"/features/{name}", lambda: Response(answer, 400, media_type=JSON))
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, name)
        types = form.query_one("#type", Select)
        other = next(value for _, value in types._options if value != types.value)
        types.value = other
        await send_form(app, pilot)
        await settle(app, pilot)
        assert app.screen is form
        at_field = visible_text(app, "#type-error")
        assert REFUSED_TYPE in at_field
        assert form.query_one("#type-error").region.y == types.region.bottom
        assert visible_text(app, "#description-error") == ""
        assert "Not applied" in visible_text(app, "#form-error")


async def test_read_only_write_key_says_the_profile_is_read_only(make_app, client) -> None:
    """Before the fix: `e` on a read-only profile did nothing, without a word."""
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    app = make_app(read_only=True, name="prod-ro")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "profile prod-ro is read-only: Edit is not offered." in toast_text(app)


def test_a_refused_write_names_the_read_only_profile() -> None:
    """Before the fix: the sentence was "Profile 'ops' is read-only: …"."""
    said = describe_error(ReadOnlyProfile("ops", "PATCH /api/admin/x"))
    assert said == "profile ops is read-only: PATCH /api/admin/x was not sent."


async def test_editing_a_multi_line_description_keeps_its_line_breaks(
    make_app, client: AdminClient
) -> None:
    """The one-line input shows a line break as ↵ (and controls as ␛…); an edit around it
    sends the line break back (issue 44, item 1: before, such an edit was refused, to be
    made in the raw JSON Patch, and before that it stored the ↵)."""
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    multi = "first line\nsecond line"
    await client.features.patch(
        PROJECT, name, [{"op": "replace", "path": "/description", "value": multi}]
    )
    app = make_app()
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, PatchFormScreen)
        assert app.screen.query_one("#description").value == "first line↵second line"  # type: ignore[attr-defined]
        await pilot.press("end", *" more")
        # The raw JSON Patch offers the edit as it will be sent, the line break escaped.
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        assert '"value": "first line\\nsecond line more"' in visible_text(app, "#raw")
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        await send_form(app, pilot)
        assert not isinstance(app.screen, PatchFormScreen), screen_text(app)
    assert (await client.features.get(PROJECT, name)).description == multi + " more"
