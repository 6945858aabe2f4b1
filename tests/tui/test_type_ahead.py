"""Keys typed in one burst after a search or filter key (a paste, a fast typist over SSH) land
in the field that key opens, not on the screen behind it: `7` there would switch to Users."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.screens.users import UsersScreen
from testkit.pilot import settle

KEY_NAMES = {"/": "slash"}


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
