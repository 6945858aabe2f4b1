"""What Enter does in a question (issue 46, item 6): an action that adds or saves has its own
button focused, so Enter does it; one that deletes, archives, removes, revokes, discards,
disables, rolls back or switches off keeps Cancel focused, so an Enter typed by habit changes
nothing. Every caller's label is classified here; the flows check the server afterwards."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from flagtui.api import AdminClient
from flagtui.api.errors import NotFoundError
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .helpers import screen_text, visible_text

# Every label a confirmation of flagtui carries (grep ConfirmModal): True when Enter does it.
LABELS = {
    "Create": True,  # create_flag
    "Grant": True,  # access
    "Send": True,  # patch_form, variant_form
    "Add": True,  # strategy_form
    "Update": True,  # strategy_form
    "Enable": True,  # strategy_keys, integration_switch
    "Reorder": True,  # strategy_keys
    "Switch on": True,  # env_toggle (production)
    "Uncomplete": True,  # feature_detail
    "Revive": True,  # archive_confirm
    "Revive 3": True,  # bulk_screens
    "Enable 3": True,
    "Mark stale 3": True,
    "Mark not stale 3": True,
    "Discard edits": False,  # leaving a form: patch, variants, strategy
    "Discard": False,  # create_flag, feature_types
    "Delete": False,  # change_requests
    "Archive": False,  # archive_confirm
    "Archive 3": False,  # bulk_screens
    "Disable 3": False,
    "Remove": False,  # strategy_keys
    "Disable": False,  # rollout_keys, integration_switch
    "Roll back": False,  # rollout_keys
    "Switch off": False,  # env_toggle (production)
    "Confirm": False,  # the default: a label not classified is asked as destructive
}


@pytest.mark.parametrize(("label", "enter_does_it"), LABELS.items())
async def test_the_focused_button_follows_what_the_action_does(
    make_app, label: str, enter_does_it: bool
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        answers: list[bool | None] = []
        app.push_screen(ConfirmModal(f"{label}?", "body", confirm_label=label), answers.append)
        await settle(app, pilot)
        focused = app.focused
        assert isinstance(focused, Button)
        assert str(focused.label) == (label if enter_does_it else "Cancel")
        assert label in visible_text(app, ".dialog-buttons")
        await pilot.press("enter")
        await settle(app, pilot)
        assert answers == [enter_does_it]


async def live_flag(client: AdminClient) -> tuple[str, str]:
    project = (await client.projects.list())[0].id
    page = await client.features.search(FeatureQuery(project=project, lifecycle=["live"]))
    flag = page.features[0]
    return flag.project or project, flag.name


async def test_enter_keeps_a_flag_out_of_the_archive_and_tab_enter_archives_it(
    make_app, client: AdminClient
) -> None:
    project, name = await live_flag(client)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(project, name))
        await settle(app, pilot)
        await pilot.press("A")
        await settle(app, pilot)
        assert f"Archive {name}?" in screen_text(app)
        await pilot.press("enter")  # Cancel
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert not (await client.features.get(project, name)).archived
        await pilot.press("A")
        await settle(app, pilot)
        await pilot.press("tab", "enter")  # to Archive, then press it
        await settle(app, pilot)
    with pytest.raises(NotFoundError):  # archived: Unleash's flag route no longer finds it
        await client.features.get(project, name)
    assert (await client.events.search(feature=name, limit=1)).events[0].type == "feature-archived"


async def test_enter_revives_an_archived_flag(make_app, client: AdminClient) -> None:
    project, name = await live_flag(client)
    await client.features.archive(project, name)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(project, name))
        await settle(app, pilot)
        await pilot.press("v")
        await settle(app, pilot)
        assert "Revive archived feature?" in screen_text(app)
        await pilot.press("enter")  # Revive has the focus
        await settle(app, pilot)
    assert not (await client.features.get(project, name)).archived
    assert (await client.events.search(feature=name, limit=1)).events[0].type == "feature-revived"
