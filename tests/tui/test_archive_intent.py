"""Archive and revive as Unleash's own operations from the detail and the patch form, asked
first (the typed name on a production profile, each environment's state after a revive), and
a form that never loses typed work: each flow checks the rendered screen, then the server."""

from __future__ import annotations

from typing import Any

from textual.widgets import Button, Checkbox, Input, TextArea

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.format import clean
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text


async def a_live_flag(client: AdminClient, index: int) -> tuple[str, str]:
    project = (await client.projects.list())[0].id
    page = await client.features.search(
        FeatureQuery(project=project, lifecycle=["live"], limit=index + 1)
    )
    return project, page.features[index].name


async def newest_event(client: AdminClient, name: str) -> str:
    return (await client.events.search(feature=name, limit=1)).events[0].type


async def open_detail(app: Any, pilot: Any, project: str, name: str) -> None:
    app.push_screen(FeatureDetailScreen(project, name))
    await settle(app, pilot)


async def test_archive_on_a_production_profile_needs_the_typed_name(make_app, client) -> None:
    project, name = await a_live_flag(client, 0)
    await client.features.set_environment_enabled(project, name, "production", True)
    app = make_app(production=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, name)
        await pilot.press("A")
        await settle(app, pilot)
        assert isinstance(app.screen, TypedConfirmModal)
        asked = screen_text(app)
        assert "It is on in" in asked and "production" in asked
        assert f"Type {name!r} to confirm" in asked
        assert app.screen.query_one("#confirm", Button).disabled
        await pilot.press(*name, "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert f"{name} archived: no SDK receives it any more" in toast_text(app)
        assert "v revives it" in screen_text(app)
    assert await newest_event(client, name) == "feature-archived"
    archived = await client.archived.find(project, name)
    assert archived is not None and archived.lifecycle and archived.lifecycle.stage == "archived"


async def test_revive_says_each_environment_is_off_afterwards(make_app, client) -> None:
    project, name = await a_live_flag(client, 1)
    await client.features.set_environment_enabled(project, name, "production", True)
    await client.features.archive(project, name)
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, name)
        await pilot.press("v")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        asked = screen_text(app)
        assert "every environment is off afterwards" in asked
        assert "production: off (on when it was archived)" in asked
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert f"{name} revived: every environment is off" in toast_text(app)
    live = await client.features.get(project, name)
    assert not any(e.enabled for e in live.environments or [])
    assert await newest_event(client, name) == "feature-revived"


async def test_the_archived_box_is_sent_on_its_own(make_app, client) -> None:
    project, name = await a_live_flag(client, 2)
    before = await newest_event(client, name)
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, name)
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, PatchFormScreen)
        form.query_one("#description", Input).value = "typed with an archive"
        form.query_one("#archived", Checkbox).value = True
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen is form
        assert "Archive is sent on its own" in visible_text(app, "#form-error")
        form.query_one("#description", Input).value = clean(form.feature.description or "")
        await pilot.press("ctrl+t")  # the raw JSON Patch: /archived is refused there too
        form.query_one(
            "#raw", TextArea
        ).text = '[{"op": "replace", "path": "/archived", "value": true}]'
        await pilot.press("ctrl+r")
        await pilot.pause()
        said = visible_text(app, "#form-error")
        assert "Not sent" in said and "flagtui feature archive" in said
    assert await newest_event(client, name) == before
    assert not (await client.features.get_or_archived(project, name)).is_archived


async def test_leaving_the_form_with_edits_asks_and_keeps_them(make_app, client) -> None:
    """Failed on old main: one escape dropped the typed description without a word."""
    project, name = await a_live_flag(client, 3)
    original = (await client.features.get(project, name)).description
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, name)
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, PatchFormScreen)
        await pilot.press("escape")  # nothing typed: leaves at once
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, PatchFormScreen)
        form.query_one("#description", Input).value = "half an hour of careful words"
        form.query_one("#stale", Checkbox).focus()
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "Leave without sending?" in screen_text(app)
        await pilot.press("enter")  # Cancel is focused: stay
        await settle(app, pilot)
        assert app.screen is form
        assert "half an hour of careful words" in visible_text(app, "#description")
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
    assert (await client.features.get(project, name)).description == original
