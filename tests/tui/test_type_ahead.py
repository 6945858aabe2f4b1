"""Keys typed in one burst after a search or filter key (a paste, a fast typist over SSH) land
in the field that key opens, not on the screen behind it: `7` there would switch to Users."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from flagtui.tui.areas import AREAS
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.screens.users import UsersScreen
from testkit.pilot import settle

from .helpers import visible_text

KEY_NAMES = {"/": "slash", "-": "minus"}


def burst(app, text: str) -> None:
    """Post every key at once, as the terminal driver does for one read of a fast input."""
    for char in text:
        app.post_message(events.Key(KEY_NAMES.get(char, char), char))


async def test_a_name_typed_right_after_s_is_the_search(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, FeaturesScreen)
        burst(app, "s71")
        await settle(app, pilot)
        assert isinstance(app.screen, FeaturesScreen)
        assert app.screen.query_one("#search", Input).value == "71"


async def test_a_name_typed_right_after_s_in_users_is_the_search(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("7")
        await settle(app, pilot)
        assert isinstance(app.screen, UsersScreen)
        burst(app, "s61")
        await settle(app, pilot)
        assert isinstance(app.screen, UsersScreen)
        assert app.screen.query_one("#user-search", Input).value == "61"


async def test_text_typed_right_after_slash_is_the_filter(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")  # environments: a plain filtered table
        await settle(app, pilot)
        screen = app.screen
        burst(app, "/71")
        await settle(app, pilot)
        assert app.screen is screen
        assert app.screen.query_one("Input.filter", Input).value == "71"


# Keys typed with the area's own key: the area is built while they arrive. Textual's auto focus
# gave its first field the focus until the table took it (a message later), and the keys went
# into that field: the event log's type box, the users' search box, a hidden row filter.


async def test_a_flag_typed_with_the_event_logs_key_and_s_is_its_flag_filter(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        burst(app, "6swallet-v2-banner")
        await settle(app, pilot)
        assert isinstance(app.screen, EventsScreen)
        assert "wallet-v2-banner" in visible_text(app, "#feature")
        assert app.focused is app.screen.query_one("#feature")  # Enter submits it
        assert app.screen.query_one("#type", Input).value == ""


async def test_a_name_typed_with_the_users_key_and_s_is_the_search(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        burst(app, "7s61")
        await settle(app, pilot)
        assert isinstance(app.screen, UsersScreen)
        assert app.screen.query_one("#user-search", Input).value == "61"
        assert app.focused is app.screen.query_one("#user-search")


@pytest.mark.parametrize("key", ["2", "3", "4", "5", "9"])
async def test_a_filter_typed_with_the_areas_key_is_shown(make_app, key: str) -> None:
    """Before: `/x1` went into the hidden filter box (the rows filtered by "/x1", no box shown)."""
    area = next(a for a in AREAS if a.key == key)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        burst(app, key + "/x1")
        await settle(app, pilot)
        assert app.current_mode == area.name
        box = app.screen.query_one("Input.filter", Input)
        shown = visible_text(app, "Input.filter")
        assert "x1" in shown and "/" not in shown and app.focused is box
