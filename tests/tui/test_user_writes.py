"""The users area's writes at 80x24: `C` adds a user from a form, `R` changes the highlighted
user's root role from a picker; each shown, asked, then checked on the server."""

from __future__ import annotations

from textual.widgets import Button, Input, OptionList

from flagtui.tui.screens.user_form import UserFormModal
from flagtui.tui.screens.users import UsersScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .helpers import screen_text


async def open_users(app, pilot) -> UsersScreen:
    await settle(app, pilot)
    await pilot.press("7")
    await settle(app, pilot)
    assert isinstance(app.screen, UsersScreen)
    return app.screen


async def until_drawn(app, pilot, *texts: str) -> str:
    """The screen once a line of it holds every one of `texts` (the bound only ends a hang)."""
    for _ in range(200):
        await settle(app, pilot)
        drawn = screen_text(app)
        if any(all(t in line for t in texts) for line in drawn.splitlines()):
            return drawn
    raise AssertionError(f"{texts!r} never drawn in one line")


async def test_create_a_user_then_change_their_root_role(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_users(app, pilot)
        await pilot.press("C")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, UserFormModal)
        form.query_one("#user-name", Input).value = "Tui Person"
        form.query_one("#user-email", Input).value = "tui.person@example.com"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "POST /api/admin/user-admin" in screen_text(app)
        app.screen.query_one("#confirm", Button).press()
        await until_drawn(app, pilot, "1 user matches")
        await until_drawn(app, pilot, "Tui Person", "Viewer")
        await pilot.press("R")
        await settle(app, pilot)
        picker = app.screen
        assert isinstance(picker, ChoicePicker)
        assert "Viewer (now)" in screen_text(app)
        picker.query_one(OptionList).highlighted = 1  # Editor
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "root role Viewer → Editor" in screen_text(app)
        app.screen.query_one("#confirm", Button).press()
        await until_drawn(app, pilot, "Tui Person", "Editor")
    users = (await client.users.list()).users
    made = next(u for u in users if u.email == "tui.person@example.com")
    assert (made.name, made.root_role) == ("Tui Person", 2)


async def test_a_form_without_an_address_sends_nothing(make_app, client) -> None:
    before = len((await client.users.list()).users)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_users(app, pilot)
        await pilot.press("C")
        await settle(app, pilot)
        app.screen.query_one("#user-name", Input).value = "Nobody"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, UserFormModal)
        assert "an e-mail or a username is needed" in screen_text(app)
    assert len((await client.users.list()).users) == before


async def test_read_only_cannot_create(make_app) -> None:
    app = make_app(read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_users(app, pilot)
        await pilot.press("C")
        await pilot.pause()
        assert app.screen is screen
