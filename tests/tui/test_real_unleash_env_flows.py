"""Switching a flag per environment, linking an environment back and users' root roles, driven
through the TUI against the sandbox AND a real Unleash (the `server` fixture of
test_real_unleash_flows); each test checks the server through its API afterwards."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from flagtui.tui.screens.environments import EnvironmentsScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.users import UsersScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import press_confirm

from .areas import rows, settle
from .helpers import toast_text, visible_text
from .real_server import Server, a_feature, open_detail


async def choose(app: Any, pilot: Any, environment: str) -> None:
    picker = app.screen
    assert isinstance(picker, ChoicePicker)
    index = next(i for i, label in enumerate(picker.labels) if label.startswith(f"{environment} "))
    picker.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await pilot.pause()


async def enabled_in(server: Server, name: str, environment: str) -> bool | None:
    feature = await server.check.features.get(server.project, name)
    return next(e.enabled for e in feature.environments or [] if e.name == environment)


async def test_switch_per_environment_from_the_detail(server: Server) -> None:
    name = await a_feature(server)
    before = {env: await enabled_in(server, name, env) for env in ("development", "production")}
    app = server.app("feature-types")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_detail(app, pilot, server.project, name)
        detail = app.screen
        await pilot.press("t")
        await pilot.pause()
        await choose(app, pilot, "development")  # no production: no question
        await settle(pilot)
        assert app.screen is detail
        assert "Request failed" not in toast_text(app)
        state = "off" if before["development"] else "on"
        assert f"{name} switched {state} in development" in toast_text(app)
        mark = "✗" if before["development"] else "✓"
        assert f"{mark} development" in visible_text(app, "#feature")
        await pilot.press("t")
        await pilot.pause()
        await choose(app, pilot, "production")
        await settle(pilot)  # the question waits for its preview (the flag read again)
        assert isinstance(app.screen, ConfirmModal)
        await press_confirm(app, pilot)
        await settle(pilot)
        assert app.screen is detail
        assert isinstance(detail, FeatureDetailScreen)
    assert await enabled_in(server, name, "development") is (not before["development"])
    assert await enabled_in(server, name, "production") is (not before["production"])


async def test_link_an_environment_back(server: Server) -> None:
    target = "development"
    await server.check.environments.remove(server.project, target)
    app = server.app("environments")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, EnvironmentsScreen)
            await pilot.press("l")
            await pilot.pause()
            await choose(app, pilot, target)
            await settle(pilot)
            assert app.screen is screen
            assert "Request failed" not in toast_text(app)
            assert f"{target} linked to {server.project}" in toast_text(app)
        envs = {e.name: e.visible for e in await server.check.environments.list(server.project)}
        assert envs[target] is True
    finally:
        if server.admin is not None:
            await server.admin.post(
                f"/api/admin/projects/{server.project}/environments", json={"environment": target}
            )


async def test_users_show_their_root_role(server: Server) -> None:
    listed = await server.check.users.list()
    role_names = {r.id: r.name for r in listed.root_roles}
    expected = {str(u.id): role_names[u.root_role] for u in listed.users if u.root_role}
    app = server.app("users")
    async with app.run_test(size=(120, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UsersScreen)
        await pilot.press("s", *server.user_query)
        await pilot.pause(0.5)
        await settle(pilot)
        table = rows(app)
        assert table
        keys = [r.key.value for r in app.screen.query_one("ResourceTable").ordered_rows]
        for key, cells in zip(keys, table, strict=True):
            assert cells[3] == expected[key]
        assert "Root roles: " in visible_text(app, "#root-roles")
        assert "Admin (1)" in visible_text(app, "#root-roles")
