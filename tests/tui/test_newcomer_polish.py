"""What a newcomer notices first (issue 24, item 8): `?` lists the screen's own keys before the
generic ones, so at 80x24 the on-call keys are on screen; each search key of the event log
focuses the field its name says; counts read as English ("1 strategy")."""

from __future__ import annotations

from textual.widgets import Input

from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.screens.failures import FailuresScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.help import HelpScreen

from .areas import app_in, settle
from .helpers import screen_text, visible_text


async def test_help_lists_the_failures_screens_own_keys_first_at_80x24(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, FailuresScreen)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        shown = visible_text(app, "DataTable")  # the help's rows that fit on the screen
        # the on-call keys: follow, the window, grouping, the bell, switching an integration off
        for key, action in (
            ("F", "Follow"),
            ("w/W", "Window"),
            ("=", "Grouped"),
            ("b", "Bell"),
            ("x", "On/off"),
            ("r", "Reload"),
        ):
            line = next((ln for ln in shown.splitlines() if f" {action} " in ln), "")
            assert key in line, f"{action} ({key}) is not on the 80x24 help:\n{shown}"
        # and the screen's keys come before the generic ones (cursor keys, Tab)
        lines = shown.splitlines()
        own = max(i for i, line in enumerate(lines) if " Reload " in line or " Follow " in line)
        generic = [i for i, line in enumerate(lines) if "Cursor" in line or "Focus Next" in line]
        assert all(own < i for i in generic)


async def test_s_in_the_event_log_searches_a_flag_by_name(make_app, client, tmp_path) -> None:
    name = (await client.events.search(type="feature-created", limit=1)).events[0].feature_name
    assert name
    expected = await client.events.search(feature=name, limit=50)
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        await pilot.press("question_mark")
        await settle(pilot)
        said = next((ln for ln in screen_text(app).splitlines() if " Search flag " in ln), "")
        assert " s " in said  # the key's label says which field it searches
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("s", *name, "enter")
        await settle(pilot)
        assert app.screen.query_one("#feature", Input).value == name
        assert app.screen.query_one("#type", Input).value == ""
        status = visible_text(app, "#events-status")
        assert "not an event type" not in status
        assert f"{len(expected.events)} of" in status or f"{len(expected.events)} event" in status
        assert {e.feature_name for e in app.screen.events} == {name}


async def test_an_environment_with_one_strategy_says_1_strategy(make_app, client) -> None:
    project = (await client.projects.list())[0].id
    page = await client.features.search(FeatureQuery(project=project, limit=50))
    found = None
    for summary in page.features:
        feature = await client.features.get(project, summary.name)
        one = [e for e in feature.environments or [] if len(e.strategies or []) == 1]
        if one:
            found = feature.name, one[0].name
            break
    assert found is not None, "the demo data has a flag with one strategy in an environment"
    name, env = found
    app = make_app()
    async with app.run_test(size=(80, 120)) as pilot:  # room for the whole detail
        await settle(pilot)
        app.push_screen(FeatureDetailScreen(project, name))
        await settle(pilot)
        shown = visible_text(app, "#feature")
        assert f"{env} · 1 strategy" in shown
        assert "1 strategies" not in shown


async def test_a_type_without_lifetime_says_never(make_app, client, tmp_path) -> None:
    """The types table names "never" (`flagtui type list` printed an empty cell)."""
    await client.feature_types.update_lifetime("experiment", None)
    app = app_in(make_app, tmp_path, "feature-types")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        row = next(ln for ln in screen_text(app).splitlines() if " experiment " in ln)
        assert " never " in row
