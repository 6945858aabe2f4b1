"""Creating a flag from the Features area (issue 25, item 0): `C` opens the form in the area's
project; the server's validation route judges the name as typing pauses; ctrl+r shows the
request, then sends it; the new flag's detail opens. Checked at the sandbox: the flag, its type
and description, its feature-created event; nothing created when the server or the form
refuses, and nothing sent from a read-only profile."""

from __future__ import annotations

import uuid

from textual.widgets import Input, Select

from flagtui.api import AdminClient
from flagtui.tui.screens.create_flag import CreateFlagScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.confirm import ConfirmModal

from .areas import app_in, settle
from .helpers import screen_text, toast_text, visible_text

PROJECT = "payments"  # the area's project (areas.app_in)


async def open_form(app, pilot) -> CreateFlagScreen:
    await settle(pilot)
    await pilot.press("C")
    await settle(pilot)
    assert isinstance(app.screen, CreateFlagScreen), screen_text(app)
    return app.screen


async def test_a_flag_created_from_the_form_opens_ready_for_its_rollout(
    make_app, tmp_path, client: AdminClient
) -> None:
    name = f"created-{uuid.uuid4().hex[:8]}"
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        form = await open_form(app, pilot)
        assert f"New flag in project {PROJECT}" in screen_text(app)
        form.name_box.value = name
        form.query_one("#flag-type", Select).value = "operational"
        form.query_one("#flag-description", Input).value = "made in the TUI"
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        body = visible_text(app, ".dialog-body")
        assert f"POST /api/admin/projects/{PROJECT}/features" in body
        assert f'"name": "{name}"' in body and '"type": "operational"' in body
        await pilot.press("enter")
        await settle(pilot)
        assert f"Flag {name} created in {PROJECT}" in toast_text(app)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert name in screen_text(app)
    flag = await client.features.get(PROJECT, name)
    assert (flag.type, flag.description) == ("operational", "made in the TUI")
    assert not any(env.enabled for env in flag.environments or [])
    events = (await client.events.search(feature=name, limit=5)).events
    assert [e.type for e in events] == ["feature-created"]


async def test_a_taken_name_is_said_under_the_field_and_nothing_is_created(
    make_app, tmp_path, client: AdminClient
) -> None:
    taken = (await client.features.list(PROJECT))[0].name
    before = (await client.events.search(limit=1)).total
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        form = await open_form(app, pilot)
        form.name_box.value = taken
        form.query_one("#flag-description", Input).value = "kept"
        await pilot.pause(1.0)  # the typing pause: the server checks the name
        await settle(pilot)
        assert "↑" in visible_text(app, "#flag-name-note")
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("enter")  # Create has the focus: sent anyway: the server refuses it again
        await settle(pilot)
        assert isinstance(app.screen, CreateFlagScreen)
        assert "Not created" in visible_text(app, "#form-error")
        assert form.query_one("#flag-description", Input).value == "kept"  # nothing lost
    assert (await client.events.search(limit=1)).total == before


async def test_a_name_unleash_does_not_take_is_refused_before_any_request(
    make_app, tmp_path
) -> None:
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        form = await open_form(app, pilot)
        form.name_box.value = "two words"
        await settle(pilot)
        sent = app.client.requests_sent
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, CreateFlagScreen)
        assert "name" in visible_text(app, "#form-error")
        assert "URL-friendly" in visible_text(app, "#flag-name-note")
        assert app.client.requests_sent == sent


async def test_a_read_only_profile_is_not_offered_the_form(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "features", read_only=True)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        sent = app.client.requests_sent
        await pilot.press("C")
        await settle(pilot)
        assert not isinstance(app.screen, CreateFlagScreen)
        assert "Create flag is not offered" in toast_text(app)
        assert app.client.requests_sent == sent
