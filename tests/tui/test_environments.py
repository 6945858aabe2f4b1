"""Project environments: removal only after typing the environment's name."""

from __future__ import annotations

from textual.widgets import Button, Input

from flagtui.tui.screens.environments import EnvironmentsScreen
from flagtui.tui.widgets.confirm import TypedConfirmModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .helpers import visible_text


async def open_environments(app, pilot) -> EnvironmentsScreen:
    await settle(app, pilot)
    await pilot.press("3")
    await settle(app, pilot)
    assert isinstance(app.screen, EnvironmentsScreen)
    return app.screen


async def test_remove_environment_after_typing_its_name(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_environments(app, pilot)
        project = screen.project
        assert project is not None
        linked = [e.name for e in await client.environments.list(project) if e.visible]
        target = linked[0]
        table = screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index(target))
        await pilot.press("d")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal)
        confirm = modal.query_one("#confirm", Button)
        await pilot.press(*target[:-1])
        await pilot.pause()
        assert confirm.disabled
        await pilot.press(target[-1])
        await pilot.pause()
        assert not confirm.disabled
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is screen
        assert f"{len(linked) - 1} of" in visible_text(app, "#envs-status")
    after = {e.name: e.visible for e in await client.environments.list(project)}
    assert after[target] is False


async def test_wrong_name_or_cancel_removes_nothing(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_environments(app, pilot)
        project = screen.project
        assert project is not None
        before = await client.environments.list(project)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, TypedConfirmModal)
        app.screen.query_one(Input).value = "nope"
        await pilot.press("enter", "escape")
        await settle(app, pilot)
        assert app.screen is screen
    assert await client.environments.list(project) == before


async def test_read_only_cannot_remove(make_app) -> None:
    app = make_app(read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_environments(app, pilot)
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is screen
