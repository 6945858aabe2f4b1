"""A flag switched on or off per environment from the features list and the detail, and an
environment linked back to a project: what the screen shows, then what the server holds."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import Feature
from flagtui.tui.screens.environments import EnvironmentsScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import press_confirm

from .areas import app_in, settle
from .helpers import screen_text, toast_text, visible_text
from .rollout_flows import until_shown

PROJECT = "payments"


async def state_of(client: AdminClient, name: str, env: str) -> bool | None:
    feature = await client.features.get(PROJECT, name)
    return next(e.enabled for e in feature.environments or [] if e.name == env)


def highlighted(app: Any) -> Feature:
    feature = app.screen.query_one(ResourceTable).selected_record
    assert isinstance(feature, Feature)
    return feature


async def pick(app: Any, pilot: Any, env: str) -> None:
    """In the picker on screen, move to the line of `env` and choose it."""
    picker = app.screen
    assert isinstance(picker, ChoicePicker)
    index = next(i for i, label in enumerate(picker.labels) if label.startswith(f"{env} "))
    picker.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await pilot.pause()


async def test_toggle_from_the_list_picks_an_environment_and_shows_the_new_state(
    make_app, client, tmp_path
) -> None:
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, FeaturesScreen)
        feature = highlighted(app)
        before = await state_of(client, feature.name, "staging")
        await pilot.press("t")
        await pilot.pause()
        shown = screen_text(app)
        assert f"Switch {feature.name} on or off in which environment?" in shown
        assert "staging (preproduction) · " in shown and "production (production) · " in shown
        await pick(app, pilot, "staging")
        await settle(pilot)
        assert isinstance(app.screen, FeaturesScreen)  # staging is no production: no question
        now = "on" if not before else "off"
        assert f"{feature.name} switched {now} in staging" in toast_text(app)
        assert await state_of(client, feature.name, "staging") is (not before)
        # the list was read again: the row's environments say the new state
        assert next(
            e.enabled for e in highlighted(app).environments or [] if e.name == "staging"
        ) is (not before)
        await pilot.press("t")
        await pilot.pause()
        mark = f"staging (preproduction) · {now} → switch {'off' if now == 'on' else 'on'}"
        assert mark in screen_text(app)


async def test_production_asks_first_naming_flag_environment_and_state(
    make_app, client, tmp_path
) -> None:
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        name = highlighted(app).name
        before = await state_of(client, name, "production")
        state = "off" if before else "on"
        await pilot.press("enter")
        await settle(pilot)
        detail = app.screen
        assert isinstance(detail, FeatureDetailScreen)
        await pilot.press("t")
        await pilot.pause()
        await pick(app, pilot, "production")
        await until_shown(app, pilot, ConfirmModal)  # the question waits for its preview

        assert f"Switch {name} {state} in production?" in screen_text(app)
        assert f"will be {state.upper()} there" in visible_text(app, ".dialog-body")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is detail
        assert await state_of(client, name, "production") is before
        await pilot.press("t")
        await pilot.pause()
        await pick(app, pilot, "production")
        await until_shown(app, pilot, ConfirmModal)
        await press_confirm(app, pilot)  # "Switch on" has the focus, "Switch off" is a Tab away
        await settle(pilot)
        assert app.screen is detail
        assert f"{name} switched {state} in production" in toast_text(app)
        assert await state_of(client, name, "production") is (not before)
        mark = "✓" if not before else "✗"
        assert f"{mark} production (production)" in visible_text(app, "#feature")


async def test_read_only_refuses_before_any_request(make_app, client, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "features", read_only=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        name = highlighted(app).name
        before = (await client.features.get(PROJECT, name)).environments
        sent = app.client.requests_sent
        await pilot.press("t")
        await settle(pilot)
        assert app.screen is screen  # no picker, no dialog
        assert "profile sandbox is read-only: Toggle is not offered." in toast_text(app)
        assert "Toggle" not in visible_text(app, "KeyBar")
        assert app.client.requests_sent == sent
    assert (await client.features.get(PROJECT, name)).environments == before


async def test_an_archived_flag_is_not_switched(make_app, client, tmp_path) -> None:
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    await client.features.archive(PROJECT, name)
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "Toggle" not in visible_text(app, "KeyBar")


async def test_link_an_environment_back(make_app, client, tmp_path) -> None:
    await client.environments.remove(PROJECT, "qa")
    app = app_in(make_app, tmp_path, "environments")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, EnvironmentsScreen)
        linked = sum(1 for e in screen.environments if e.visible)
        await pilot.press("l")
        await pilot.pause()
        shown = screen_text(app)
        assert f"Link which environment to {PROJECT}?" in shown
        assert "qa (" in shown and "production (" not in shown  # only the unlinked ones
        await pick(app, pilot, "qa")
        await settle(pilot)
        assert app.screen is screen
        assert f"qa linked to {PROJECT}" in toast_text(app)
        assert f"{linked + 1} of" in visible_text(app, "#envs-status")
    envs = {e.name: e.visible for e in await client.environments.list(PROJECT)}
    assert envs["qa"] is True
    flag = (await client.features.list(PROJECT))[0]
    assert next(e.enabled for e in flag.environments or [] if e.name == "qa") is False


async def test_link_says_when_nothing_is_left_to_link(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "environments")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, EnvironmentsScreen)
        assert all(e.visible for e in screen.environments)  # the demo data's payments
        await pilot.press("l")
        await settle(pilot)
        assert app.screen is screen
        assert f"Every environment is linked to {PROJECT}" in toast_text(app)


async def test_read_only_cannot_link(make_app, client, tmp_path) -> None:
    await client.environments.remove(PROJECT, "qa")
    app = app_in(make_app, tmp_path, "environments", read_only=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        sent = app.client.requests_sent
        await pilot.press("l")
        await settle(pilot)
        assert app.screen is screen
        assert "profile sandbox is read-only: Link is not offered." in toast_text(app)
        assert app.client.requests_sent == sent
    envs = {e.name: e.visible for e in await client.environments.list(PROJECT)}
    assert envs["qa"] is False
