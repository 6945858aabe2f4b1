"""The operations OSS supports, driven through the TUI against the sandbox AND a real Unleash.

The "unleash" runs need UNLEASH_URL and UNLEASH_API_TOKEN (`scripts/unleash-oss start`, then
`eval "$(scripts/unleash-oss env)"`); CI sets them. Each test checks the server through its API
afterwards. Real Unleash allows 15 feature searches a minute per client IP, shared by every test:
the apps here start outside the features area and open feature details by project and name.
Setup that is no flagtui operation (creating and completing flags) goes through plain httpx.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from real_revive import wait_until_archived, wait_until_revived
from real_webhook import retire_webhook_async
from textual.command import CommandList, CommandPalette
from textual.widgets import Checkbox, Input

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.deliveries import DeliveriesScreen
from flagtui.tui.screens.environments import EnvironmentsScreen
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.feature_types import FeatureTypesScreen, LifetimeModal
from flagtui.tui.screens.integrations import IntegrationsScreen
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.screens.users import UsersScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.table import ResourceTable

from .areas import rows, settle
from .helpers import screen_text, toast_text, visible_text
from .real_server import (
    NO_REAL,
    REAL_TOKEN,
    REAL_URL,
    Server,
    a_feature,
    a_feature_with_events,
    open_detail,
    poll,
)


def shown(app: FlagtuiApp) -> str:
    return visible_text(app, "#feature")


async def test_patch_form_changes_the_description(server: Server) -> None:
    name = await a_feature(server)
    text = f"Edited from the TUI {uuid.uuid4().hex[:6]}"
    app = server.app("feature-types")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_detail(app, pilot, server.project, name)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, PatchFormScreen)
        app.screen.query_one("#description", Input).value = text
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert text in shown(app)
        assert "Request failed" not in toast_text(app)
    assert (await server.check.features.get(server.project, name)).description == text


async def failing_addon(server: Server, request: pytest.FixtureRequest) -> int:
    if server.real:
        return int(request.getfixturevalue("webhook_id"))
    for addon in (await server.check.integrations.list()).addons:
        if any(d.failed for d in await server.check.integrations.events(addon.id)):
            return int(addon.id)
    raise AssertionError("the sandbox's demo data has no failed delivery")


async def test_integrations_list_the_webhook_and_its_failed_deliveries(
    server: Server, request: pytest.FixtureRequest
) -> None:
    addon_id = await failing_addon(server, request)
    app = server.app("integrations")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, IntegrationsScreen)
        table = app.screen.query_one(ResourceTable)
        ids = [str(r.key.value) for r in table.ordered_rows]
        assert str(addon_id) in ids
        assert int(rows(app)[ids.index(str(addon_id))][3]) >= 1  # failures in the window
        table.move_cursor(row=table.get_row_index(str(addon_id)))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        await pilot.press("f")
        await pilot.pause()
        failed_shown = [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]
        assert "Request failed" not in toast_text(app)
    # Real deliveries keep coming (other tests change flags): what was shown must still be there.
    after = {d.id: d for d in await server.check.integrations.events(addon_id, limit=100)}
    assert failed_shown
    assert all(key in after and after[key].failed for key in failed_shown[:10])


async def switchable_addon(server: Server) -> tuple[int, str]:
    """An integration of this test alone on real Unleash (the shared failing webhook is never
    switched off); the sandbox's Datadog integration. Its id and description."""
    if not server.real:
        addons = (await server.check.integrations.list()).addons
        datadog = next(a for a in addons if a.provider == "datadog")
        return datadog.id, datadog.description or ""
    assert server.admin is not None
    description = f"flagtui tui switch {uuid.uuid4().hex[:8]}"
    created = await server.admin.post(
        "/api/admin/addons",
        json={
            "provider": "webhook",
            "description": description,
            "enabled": True,
            "parameters": {"url": "http://127.0.0.1:9/tui-switch", "contentType": "text/plain"},
            "events": ["feature-created"],
            "projects": [],
            "environments": [],
        },
    )
    assert created.status_code in (200, 201), created.text
    return int(created.json()["id"]), description


async def test_integration_disabled_and_enabled_again_from_the_tui(server: Server) -> None:
    addon_id, description = await switchable_addon(server)

    async def enabled() -> bool:
        addons = (await server.check.integrations.list()).addons
        return bool(next(a for a in addons if a.id == addon_id).enabled)

    try:
        app = server.app("integrations")
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, IntegrationsScreen)
            table = app.screen.query_one(ResourceTable)
            table.move_cursor(row=table.get_row_index(str(addon_id)))
            for verb, state in (("Disable", False), ("Enable", True)):
                await pilot.press("x")
                await pilot.pause()
                assert isinstance(app.screen, ConfirmModal)
                assert f"{verb} {description}" in visible_text(app, ".dialog-title")
                await pilot.click("#confirm")
                await settle(pilot)
                assert isinstance(app.screen, IntegrationsScreen)
                assert "Request failed" not in toast_text(app)
                assert await enabled() is state
        events = (await server.check.events.search(type="addon-config-updated", limit=20)).events
        mine = [e.data["enabled"] for e in events if e.data and e.data.get("id") == addon_id]
        assert mine[:2] == [True, False]
    finally:
        if server.admin is not None:
            await retire_webhook_async(server.admin, addon_id)


async def test_environment_removal_after_typing_its_name(server: Server) -> None:
    linked = [e.name for e in await server.check.environments.list(server.project) if e.visible]
    target = "development" if server.real else linked[0]
    assert target in linked
    app = server.app("environments")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, EnvironmentsScreen)
            assert screen.project == server.project
            table = screen.query_one(ResourceTable)
            table.move_cursor(row=table.get_row_index(target))
            await pilot.press("d")
            await pilot.pause()
            assert isinstance(app.screen, TypedConfirmModal)
            await pilot.press(*target, "enter")
            await settle(pilot)
            assert app.screen is screen
            assert "Request failed" not in toast_text(app)
        envs = await server.check.environments.list(server.project)
        after = {e.name: e.visible for e in envs}
        assert after[target] is False
    finally:
        if server.admin is not None:
            await server.admin.post(
                f"/api/admin/projects/{server.project}/environments",
                json={"environment": target},
            )


def stage_of(feature: Any) -> str | None:
    return feature.lifecycle.stage if feature.lifecycle is not None else None


async def a_completed_feature(server: Server) -> str:
    if not server.real:
        page = await server.check.features.search(
            FeatureQuery(project=server.project, lifecycle=["completed"], limit=1)
        )
        return page.features[0].name
    assert server.admin is not None
    name = await server.new_feature()
    path = f"/api/admin/projects/{server.project}/features/{name}"

    async def read() -> Any:
        return await server.check.features.get(server.project, name)

    assert stage_of(await poll(read, lambda f: stage_of(f) == "initial", 10)) == "initial"
    done = await server.admin.post(f"{path}/lifecycle/complete", json={"status": "kept"})
    assert done.status_code == 200, done.text
    assert stage_of(await poll(read, lambda f: stage_of(f) == "completed", 10)) == "completed"
    return name


async def test_uncomplete_returns_the_flag_to_its_previous_stage(server: Server) -> None:
    name = await a_completed_feature(server)
    app = server.app("feature-types")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_detail(app, pilot, server.project, name)
        assert "Stage completed" in shown(app)
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "Request failed" not in toast_text(app)

    async def read() -> Any:
        return await server.check.features.get(server.project, name)

    after = await poll(read, lambda f: stage_of(f) not in (None, "completed"), 10)
    assert stage_of(after) not in (None, "completed")


async def test_lifetime_edit_reaches_the_server(server: Server) -> None:
    before = {t.id: t.lifetime_days for t in await server.check.feature_types.list()}
    wanted = 91 if before["release"] != 91 else 92
    app = server.app("feature-types")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, FeatureTypesScreen)
            table = app.screen.query_one(ResourceTable)
            table.move_cursor(row=table.get_row_index("release"))
            await pilot.press("e")
            await pilot.pause()
            assert isinstance(app.screen, LifetimeModal)
            app.screen.query_one(Input).value = str(wanted)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, FeatureTypesScreen)
            shown = visible_text(app, "#types").splitlines()
            [row] = [line for line in shown if line.split()[:1] == ["release"]]
            assert f"{wanted} days" in row
        types = {t.id: t.lifetime_days for t in await server.check.feature_types.list()}
        assert types["release"] == wanted
    finally:
        await server.check.feature_types.update_lifetime("release", before["release"])


async def test_user_search_shows_what_the_api_returns(server: Server) -> None:
    expected = await server.check.users.search(server.user_query)
    assert expected.users
    app = server.app("users")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UsersScreen)
        await pilot.press("s", *server.user_query)
        await pilot.pause(0.5)
        await settle(pilot)
        keys = [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]
        assert "Request failed" not in toast_text(app)
    assert keys == [str(u.id) for u in expected.users]


async def test_event_log_filtered_by_feature(server: Server) -> None:
    name = await a_feature_with_events(server)
    expected = await server.check.events.search(feature=name, limit=50)
    assert expected.events
    app = server.app("events")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        app.screen.query_one("#feature", Input).value = name
        await pilot.press("s", "enter")
        await settle(pilot)
        keys = [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]
        assert "Request failed" not in toast_text(app)
    assert keys == [str(e.id) for e in expected.events]
    assert {e.feature_name for e in expected.events} == {name}


@pytest.mark.unleash
@NO_REAL
async def test_enterprise_areas_say_they_need_enterprise(tmp_path: Path) -> None:
    assert REAL_URL and REAL_TOKEN
    async with AdminClient(REAL_URL, REAL_TOKEN, profile="check") as check:
        server = Server("unleash", REAL_URL, REAL_TOKEN, check, "default", "ad", tmp_path)
        app = server.app("feature-types")
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            assert app.client.server is not None and not app.client.server.enterprise
            version = app.client.server.version
            for key, said in (("8", "Project access needs"), ("9", "Change requests need")):
                await pilot.press(key)
                await settle(pilot)
                status = visible_text(app, "#area-status").strip()
                assert status == f"{said} Unleash Enterprise (this server is OSS {version})."
            assert not toast_text(app)
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*"go to")
            await pilot.pause(0.5)
            commands = app.screen.query_one(CommandList)
            prompts = [
                str(getattr(o.prompt, "plain", o.prompt)).splitlines()[0]
                for o in (commands.get_option_at_index(i) for i in range(commands.option_count))
            ]
        for app_client in server.apps:
            await app_client.aclose()
    assert "Go to Project access (needs Enterprise)" in prompts
    assert "Go to Change requests (needs Enterprise)" in prompts
    assert "Go to Event log" in prompts


async def test_archive_through_the_form_then_revive_from_the_detail(server: Server) -> None:
    """Failed on old main on real Unleash: the PATCH archived the flag without the archive's
    event (and earlier, the live read's 404 was shown as "Request failed")."""
    name = await a_feature(server)
    app = server.app("feature-types")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await open_detail(app, pilot, server.project, name)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, PatchFormScreen)
        app.screen.query_one("#archived", Checkbox).value = True
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "v revives it" in shown(app)
        assert not [n for n in app._notifications if n.severity == "error"]
        archived = await server.check.archived.find(server.project, name)
        assert archived is not None and archived.environments
        newest = (await server.check.events.search(feature=name, limit=1)).events[0]
        assert newest.type == "feature-archived"
        if server.admin is not None:  # real Unleash writes the stage after answering
            await wait_until_archived(server.admin, server.project, name)
        await open_detail(app, pilot, server.project, name)  # opened again: from the archive
        assert "v revives it" in shown(app)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        asked = screen_text(app)  # which environments are on afterwards: none
        assert "every environment is off afterwards" in asked
        assert all(f"{e.name}: off" in asked for e in archived.environments), asked
        await pilot.click("#confirm")
        await settle(pilot)
        assert "v revives it" not in shown(app)
        assert not [n for n in app._notifications if n.severity == "error"]
    await wait_until_revived(server.check, server.project, name)
    assert not (await server.check.features.get(server.project, name)).is_archived
