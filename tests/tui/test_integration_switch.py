"""Stop the bleeding (issue 13, item 5): `o` disables an integration, or enables it again, from
the Integrations and Failures screens, after a confirmation naming it and its new state. The
server holds the change and records `addon-config-updated`; read-only profiles send nothing;
a refusal and an unknown outcome are said, and the screen reads again."""

from __future__ import annotations

from typing import Any

from flagtui.api import AdminClient
from flagtui.triage.records import IntegrationRef
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.failures import FailuresScreen
from flagtui.tui.screens.integrations import IntegrationsScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle as settle_app

from .areas import app_in, rows, settle
from .faults import DropAnswers
from .helpers import toast_text, visible_text


async def datadog(client: AdminClient) -> IntegrationRef:
    addon = next(a for a in (await client.integrations.list()).addons if a.provider == "datadog")
    return IntegrationRef.of(addon)


async def enabled(client: AdminClient, addon_id: int) -> bool:
    addon = next(a for a in (await client.integrations.list()).addons if a.id == addon_id)
    return bool(addon.enabled)


async def switches_recorded(client: AdminClient, addon_id: int) -> list[bool]:
    """`enabled` of each `addon-config-updated` event of the integration, newest first."""
    page = await client.events.search(type="addon-config-updated", limit=20)
    return [e.data["enabled"] for e in page.events if e.data and e.data.get("id") == addon_id]


def highlight(app: FlagtuiApp, key: str, selector: str = "ResourceTable") -> None:
    table = app.screen.query_one(selector, ResourceTable)
    table.move_cursor(row=table.get_row_index(key))


async def confirm_switch(
    app: FlagtuiApp, pilot: Any, question: str, *, failures: bool = False
) -> None:
    """`failures`: the switch's write is expected to fail (the screen says how): its worker's
    error is not the test's, whether it ends before the wait starts or during it."""
    await pilot.press("x")
    await pilot.pause()
    assert isinstance(app.screen, ConfirmModal)
    assert question in visible_text(app, ".dialog-title")
    await pilot.click("#confirm")
    await settle_app(app, pilot, failures=failures)


async def test_disable_and_enable_from_the_failures_screen(make_app, client, tmp_path) -> None:
    hook = await datadog(client)
    failed = [d for d in await client.integrations.events(hook.id) if d.failed]
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        highlight(app, f"{hook.id}:{failed[0].id}", "#failures")
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        assert f"Disable {hook.label}?" in visible_text(app, ".dialog-title")
        body = visible_text(app, ".dialog-body")
        assert f"{hook.label} will be disabled" in body
        await pilot.click("#cancel")
        await settle(pilot)
        assert await enabled(client, hook.id)  # cancelled: nothing sent
        await confirm_switch(app, pilot, f"Disable {hook.label}?")
        assert isinstance(app.screen, FailuresScreen)
        assert f"{hook.label} disabled" in toast_text(app)
        assert not await enabled(client, hook.id)
        assert (await switches_recorded(client, hook.id))[:1] == [False]
        # read again: the integration's rows say it is off
        lines = visible_text(app, "#failures").splitlines()
        assert any("Datadog" in line and " off " in line for line in lines)
        await confirm_switch(app, pilot, f"Enable {hook.label}?")
        assert f"{hook.label} enabled" in toast_text(app)
    assert await enabled(client, hook.id)
    assert (await switches_recorded(client, hook.id))[:2] == [True, False]


async def test_disable_from_the_integrations_screen_and_from_a_group(
    make_app, client, tmp_path
) -> None:
    hook = await datadog(client)
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, IntegrationsScreen)
        highlight(app, str(hook.id))
        await confirm_switch(app, pilot, f"Disable {hook.label}?")
        assert not await enabled(client, hook.id)
        ids = [str(r.key.value) for r in app.screen.query_one(ResourceTable).ordered_rows]
        assert rows(app)[ids.index(str(hook.id))][1] == "no"
        assert f"{hook.label} · id {hook.id} · enabled no" in visible_text(
            app, "#integration-detail"
        )
        await pilot.press("5", "equals_sign")  # failures, grouped
        await settle(pilot)
        group = next(
            str(r.key.value)
            for r in app.screen.query_one("#failure-groups", ResourceTable).ordered_rows
            if str(r.key.value).startswith(f"{hook.id}:")
        )
        highlight(app, group, "#failure-groups")
        await confirm_switch(app, pilot, f"Enable {hook.label}?")
    assert await enabled(client, hook.id)
    assert (await switches_recorded(client, hook.id))[:2] == [True, False]


async def test_a_read_only_profile_refuses_before_any_request(make_app, client, tmp_path) -> None:
    hook = await datadog(client)
    for area in ("integrations", "failures"):
        app = app_in(make_app, tmp_path, area, read_only=True)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            assert "On/off" not in visible_text(app, "KeyBar")
            sent = app.client.requests_sent
            await pilot.press("x")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmModal)
            assert "profile sandbox is read-only: On/off is not offered" in toast_text(app)
            assert app.client.requests_sent == sent
    assert await enabled(client, hook.id)
    assert await switches_recorded(client, hook.id) == []


async def test_a_refusal_is_said_and_the_screen_reads_again(make_app, client, tmp_path) -> None:
    """The viewer token may read the integrations, not change them: the server refuses."""
    hook = await datadog(client)
    app = app_in(make_app, tmp_path, "integrations", viewer=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle_app(app, pilot, failures=True)  # its deliveries are not the viewer's
        highlight(app, str(hook.id))
        await confirm_switch(app, pilot, f"Disable {hook.label}?", failures=True)
        said = toast_text(app)
        assert "Request failed" in said and "PUT /api/admin/addons/" in said
        assert isinstance(app.screen, IntegrationsScreen)
    assert await enabled(client, hook.id)


async def test_an_unknown_outcome_says_so_and_reads_what_the_server_holds(
    build: Any, faulty: Any
) -> None:
    server, _ = faulty
    drop = DropAnswers()
    app = build(server.url, server.admin_token, transport=drop)
    async with AdminClient(server.url, server.admin_token, profile="check") as check:
        hook = await datadog(check)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            app.switch_area("integrations")
            await settle(pilot)
            highlight(app, str(hook.id))
            drop.methods.add("PUT")
            await confirm_switch(app, pilot, f"Disable {hook.label}?", failures=True)
            said = toast_text(app)
            assert "Outcome unknown" in said
            # read again: the server did apply it, and the screen shows so
            ids = [str(r.key.value) for r in app.screen.query_one(ResourceTable).ordered_rows]
            assert rows(app)[ids.index(str(hook.id))][1] == "no"
        assert not await enabled(check, hook.id)
