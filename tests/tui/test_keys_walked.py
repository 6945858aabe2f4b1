"""Keys a person drives without trial and error (issue 46, item 6): after a search and Esc the
focus is on the table again, in every area that searches; `1`-`9` switch areas from a pushed
detail screen too; space marks a row and moves down, as `?` says."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input

from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.help import HelpScreen
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, rows, settle
from .helpers import screen_text, visible_text

SEARCHED = ["features", "feature-types", "environments", "integrations", "failures", "events",
            "users", "change-requests"]  # fmt: skip


@pytest.mark.parametrize("area", SEARCHED)
async def test_escape_after_a_search_gives_the_table_the_focus(make_app, tmp_path, area) -> None:
    app = app_in(make_app, tmp_path, area)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "a")
        await settle(pilot)
        assert isinstance(app.focused, Input)  # the search box, "a" in it
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.focused, ResourceTable), app.focused
        await pilot.press("j")  # a key of the table again, not a letter in the search
        await settle(pilot)
        assert isinstance(app.focused, ResourceTable)


@pytest.mark.parametrize(("area", "opens"), [("features", "FeatureDetailScreen"),
                         ("integrations", "DeliveriesScreen"), ("events", "EventDetailScreen"),
                         ("failures", "FailureDetailScreen")])  # fmt: skip
async def test_area_keys_work_from_a_pushed_detail(make_app, tmp_path, area, opens) -> None:
    app = app_in(make_app, tmp_path, area)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == opens
        await pilot.press("7")
        await settle(pilot)
        assert app.current_mode == "users"
        assert "Users" in visible_text(app, "FlagtuiHeader")


async def test_space_marks_and_moves_down_as_the_help_says(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, FeaturesScreen)
        table = app.screen.query_one(ResourceTable)
        await pilot.press("space")
        await settle(pilot)
        assert table.cursor_row == 1
        assert rows(app)[0][0].startswith("● ") and not rows(app)[1][0].startswith("● ")
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        shown = visible_text(app, "DataTable")
        assert "Mark the flag, then move down a row" in shown, shown
        assert app.screen.query_one(DataTable).max_scroll_x == 0
        assert "space" in screen_text(app)
