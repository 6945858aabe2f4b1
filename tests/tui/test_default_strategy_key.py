"""`I` in the project environments area at 80x24: the default strategy of one environment,
the request and what it changes shown first; the server keeps it, the table says it, and a
flag switched on there afterwards gets it."""

from __future__ import annotations

import uuid

from flagtui.tui.screens.environments import EnvironmentsScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.line_prompt import LinePrompt
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .helpers import screen_text, toast_text


async def test_a_default_strategy_is_set_from_the_environments_area(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, EnvironmentsScreen) and screen.project is not None
        project = screen.project
        envs = await client.environments.list(project)
        target = next(e for e in envs if e.visible and e.type != "production")
        table = screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index(target.name))
        await pilot.press("I")
        await settle(app, pilot)
        assert isinstance(app.screen, LinePrompt), screen_text(app)
        await pilot.press("1", "0", "1", "enter")  # over 100: refused, nothing sent
        await settle(app, pilot)
        assert "rollout: a whole percentage from 0 to 100" in toast_text(app)
        await pilot.press("I")
        await settle(app, pilot)
        await pilot.press("3", "5", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert not isinstance(app.screen, TypedConfirmModal)
        asked = screen_text(app)
        assert "No flag changes now" in asked and '"rollout": "35"' in asked
        await pilot.press("tab", "enter")
        await settle(app, pilot)
        assert app.screen is screen
        assert "35 %" in screen_text(app)
    kept = await client.default_strategies.get(project, target.name)
    assert kept is not None and (kept.parameters or {})["rollout"] == "35"
    name = f"after-default-{uuid.uuid4().hex[:6]}"
    await client.features.create(project, name)
    await client.features.set_environment_enabled(project, name, target.name, True)
    [strategy] = await client.rollouts.list(project, name, target.name)
    assert strategy.parameters == {"rollout": "35", "stickiness": "default", "groupId": name}
