"""What the Access area's tests share: the grant form filled as a person fills it."""

from __future__ import annotations

from textual.widgets import Input, SelectionList

from flagtui.tui.screens.access import AccessScreen

from .areas import settle


async def fill_form(app, pilot, user_query: str, role: int, group: int | None) -> None:
    await settle(pilot)
    assert isinstance(app.screen, AccessScreen)
    app.screen.query_one("#roles", SelectionList).select(role)
    if group is not None:
        app.screen.query_one("#groups", SelectionList).select(group)
    app.screen.query_one("#user-search", Input).value = user_query
    await settle(pilot)
    users = app.screen.query_one("#users", SelectionList)
    users.select(users.get_option_at_index(0).value)
    await pilot.pause()
