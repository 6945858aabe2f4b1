"""The palette finds any registered action by its name or the words people use, from any area,
and runs it: those that need a flag ask for one (the server's search), then act on it."""

from __future__ import annotations

import json

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, OptionList

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.config import Profile
from flagtui.tui import typing_pause
from flagtui.tui.actions import PALETTE_ACTIONS
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.flag_picker import FlagPickerModal
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .helpers import BURST_PAUSE_S, screen_text, visible_text
from .palette_keys import palette_for, run_from_palette, type_text

# Issue 14, item 4: each word, and the action it must find.
WORDS = {
    "toggle": "Toggle a flag in an environment…",
    "enable": "Toggle a flag in an environment…",
    "disable": "Toggle a flag in an environment…",
    "link environment": "Link an environment to the project",
    "patch": "Patch a flag…",
    "edit": "Patch a flag…",
    "archive": "Archive a flag…",
    "revive": "Revive an archived flag…",
    "uncomplete": "Uncomplete a flag…",
    "lifetime": "Change a type's lifetime",
    "remove environment": "Remove an environment from the project",
    "grant": "Grant project roles",
    "delete change request": "Delete a change request",
    "search events": "Search events",
    "switch profile": "Switch profile…",
}

# Issue 23, item 6: the words of someone on call, and the view each must find.
ON_CALL_WORDS = {
    "failed": "Failed deliveries",
    "failures": "Failed deliveries",
    "alert": "Failed deliveries",
    "webhook": "Integrations and their deliveries",
    "deliveries": "Integrations and their deliveries",
    "integration": "Integrations and their deliveries",
    "who changed": "Search events",
}


def test_every_word_of_the_issue_names_a_registered_action() -> None:
    titles = {a.title for a in PALETTE_ACTIONS}
    assert set(WORDS.values()) <= titles
    for word, title in WORDS.items():
        entry = next(a for a in PALETTE_ACTIONS if a.title == title)
        assert word in entry.words or word in title.lower()


@pytest.mark.parametrize("area", ["users", "events"])
async def test_the_palette_finds_each_action_by_its_words(make_app, area) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        app.switch_area(area)
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await settle(app, pilot)
        query = app.screen.query_one(Input)
        for word, title in WORDS.items():
            query.value = word  # as if pasted over the last word: one search each
            await settle(app, pilot)
            shown = screen_text(app)
            assert title in shown, f"{word!r} did not find {title!r}:\n{shown}"
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, CommandPalette)


async def test_the_palette_speaks_on_call(make_app) -> None:
    """Each word finds its view in one open palette; picking it opens the area (read-only
    profiles too: nothing here writes)."""
    app = make_app(read_only=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await settle(app, pilot)
        query = app.screen.query_one(Input)
        for word, title in ON_CALL_WORDS.items():
            query.value = word
            await settle(app, pilot)
            shown = screen_text(app)
            assert title in shown, f"{word!r} did not find {title!r}:\n{shown}"
        await pilot.press("escape")
        await settle(app, pilot)
        await run_from_palette(app, pilot, "alert", "Failed deliveries")
        assert app.screen.AREA == "failures"
        await run_from_palette(app, pilot, "webhook", "Integrations and their deliveries")
        assert app.screen.AREA == "integrations"


async def test_a_read_only_profile_is_offered_no_write_action(make_app) -> None:
    app = make_app(read_only=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        shown = await palette_for(app, pilot, "patch")
        assert "Patch a flag…" not in shown
        await pilot.press("escape")
        await settle(app, pilot)
        shown = await palette_for(app, pilot, "search events")
        assert "Search events" in shown


async def test_patch_from_the_palette_on_the_users_area(make_app, client) -> None:
    """The picker searches the project the features area chose (the first)."""
    project = (await client.projects.list())[0].id
    feature = (await client.features.search(FeatureQuery(project=project, limit=3))).features[2]
    assert feature.project == project
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.switch_area("users")
        await settle(app, pilot)
        await run_from_palette(app, pilot, "patch", "Patch a flag…")
        assert isinstance(app.screen, FlagPickerModal)
        await type_text(pilot, feature.name)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PatchFormScreen), screen_text(app)
        assert f"Patch {feature.name}" in screen_text(app)
        app.screen.query_one("#description", Input).value = "patched from the palette"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "patched from the palette" in visible_text(app, "#feature")
    after = await client.features.get(feature.project, feature.name)
    assert after.description == "patched from the palette"


async def test_uncomplete_from_the_palette_picks_among_completed_flags(make_app, client) -> None:
    project = (await client.projects.list())[0].id
    completed = await client.features.search(
        FeatureQuery(project=project, lifecycle=["completed"], limit=1)
    )
    feature = completed.features[0]
    assert feature.project is not None
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await run_from_palette(app, pilot, "uncomplete", "Uncomplete a flag…")
        assert isinstance(app.screen, FlagPickerModal)
        assert feature.name in visible_text(app, "#flag-options")
        await type_text(pilot, feature.name)
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "Mark feature uncompleted?" in screen_text(app)
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "Stage completed" not in visible_text(app, "#feature")
    after = await client.features.get(feature.project, feature.name)
    assert after.lifecycle is not None and after.lifecycle.stage != "completed"


async def test_revive_from_the_palette_brings_an_archived_flag_back(make_app, client) -> None:
    project = (await client.projects.list())[0].id
    archived = await client.features.search(FeatureQuery(project=project, archived=True, limit=1))
    feature = archived.features[0]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)  # the features area remembers the first project
        await run_from_palette(app, pilot, "revive", "Revive an archived flag…")
        assert isinstance(app.screen, FlagPickerModal)
        await type_text(pilot, feature.name)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert "revived" in screen_text(app) or "Archived" not in visible_text(app, "#feature")
    revived = await client.features.get(project, feature.name)
    assert not revived.archived


async def test_the_flag_picker_sends_one_search_per_pause_in_typing(
    sandbox, client, tmp_path, monkeypatch
):
    """Unleash 8.2 allows 15 searches a minute: with a limit of 2, opening the picker and
    typing a word (one search after the pause) leaves the server's search usable; a search per
    key would have been held back by the client, and the picker would say so."""
    monkeypatch.setattr(typing_pause, "TYPING_PAUSE_S", BURST_PAUSE_S)
    project = (await client.projects.list())[0].id
    completed = await client.features.search(
        FeatureQuery(project=project, lifecycle=["completed"], limit=5)
    )
    word = completed.features[0].name[:6]
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "users", "project": project}}))
    token = sandbox.admin_token
    sandbox.use_database(sandbox.db_path, search_limit=2)
    app_client = AdminClient(sandbox.url, token, profile="sandbox")
    app = FlagtuiApp(app_client, Profile(name="sandbox", url=sandbox.url), state_path=state)
    async with app_client, app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await run_from_palette(app, pilot, "uncomplete", "Uncomplete a flag…")
        assert isinstance(app.screen, FlagPickerModal)
        await type_text(pilot, word)
        await settle(app, pilot)
        listed = visible_text(app, "#flag-options")
        assert completed.features[0].name in listed
        status = visible_text(app, "#flag-picker-status")
        assert "completed flags" in status and "Rate limited" not in screen_text(app)


async def test_archive_from_the_palette_asks_then_archives_with_unleashs_archive(
    make_app, client
) -> None:
    """Failed on old main: the palette opened the patch form, which sent a PATCH of /archived
    (no feature-archived event, the lifecycle unchanged)."""
    project = (await client.projects.list())[0].id
    feature = (await client.features.search(FeatureQuery(project=project, limit=2))).features[1]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await run_from_palette(app, pilot, "archive", "Archive a flag…")
        await type_text(pilot, feature.name)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        asked = screen_text(app)
        assert f"Archive {feature.name}?" in asked and "records feature-archived" in asked
        await pilot.click("#confirm")
        await settle(app, pilot)
    archived = await client.archived.find(project, feature.name)
    assert archived is not None and archived.lifecycle and archived.lifecycle.stage == "archived"
    events = (await client.events.search(feature=feature.name, limit=1)).events
    assert events[0].type == "feature-archived"


async def test_toggle_from_the_palette_switches_the_picked_flag(make_app, client) -> None:
    project = (await client.projects.list())[0].id
    feature = (await client.features.search(FeatureQuery(project=project, limit=3))).features[1]
    before = await client.features.get(project, feature.name)
    env = next(e for e in before.environments or [] if e.type != "production")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.switch_area("users")
        await settle(app, pilot)
        await run_from_palette(app, pilot, "disable", "Toggle a flag in an environment…")
        assert isinstance(app.screen, FlagPickerModal)
        await type_text(pilot, feature.name)
        await pilot.press("enter")
        await settle(app, pilot)
        picker = app.screen
        assert isinstance(picker, ChoicePicker), screen_text(app)
        assert f"Switch {feature.name} on or off in which environment?" in screen_text(app)
        index = next(i for i, label in enumerate(picker.labels) if label.startswith(f"{env.name} "))
        picker.query_one(OptionList).highlighted = index
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
    after = await client.features.get(project, feature.name)
    assert (
        next(e.enabled for e in after.environments or [] if e.name == env.name) is not env.enabled
    )
