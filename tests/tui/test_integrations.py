"""Integrations and their deliveries (operation 2), and the failures view across all of them."""

from __future__ import annotations

from flagtui.triage.records import IntegrationRef
from flagtui.tui.screens.deliveries import DeliveriesScreen, DeliveryDetailScreen
from flagtui.tui.screens.failures import FailureDetailScreen, FailuresScreen
from flagtui.tui.screens.integrations import IntegrationsScreen
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, rows, settle
from .helpers import visible_text


async def test_integrations_are_named_and_show_their_failures_in_the_window(
    make_app, client, tmp_path
) -> None:
    """The live source's default window is all the server has: each integration's failures
    among every delivery the server keeps."""
    addons = (await client.integrations.list()).addons
    expected = {
        str(a.id): sum(d.failed for d in await client.integrations.events(a.id, limit=100))
        for a in addons
    }
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, IntegrationsScreen)
        table = app.screen.query_one(ResourceTable)
        keys = [str(r.key.value) for r in table.ordered_rows]
        shown = {key: int(row[3]) for key, row in zip(keys, rows(app), strict=True)}
        assert shown == expected
        labels = [row[0] for row in rows(app)]
        assert labels[:2] == [IntegrationRef.of(a).label for a in addons[:2]]
        assert labels[1] == "Legacy audit collector (flaky endpoint) (webhook)"
        assert any(shown.values())
        assert "window all (w)" in visible_text(app, "#integrations-status")
        detail = visible_text(app, "#integration-detail")
        assert "Deploy pipeline notifications (webhook) · id 1" in detail
        assert "•••••" in detail
        assert "ci-4b1d" not in detail and "6f1c9a2e" not in detail


async def test_deliveries_page_filter_and_detail(make_app, client, tmp_path) -> None:
    first = await client.integrations.events(2, limit=50)
    second = await client.integrations.events(2, limit=50, offset=50)
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index("2"))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        assert [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows] == [
            d.id for d in first
        ]
        await pilot.press("f")
        await pilot.pause()
        assert [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows] == [
            d.id for d in first if d.failed
        ]
        await pilot.press("f", "n")
        await settle(pilot)
        assert [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows] == [
            d.id for d in second
        ]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DeliveryDetailScreen)
        text = visible_text(app, "#delivery")
        assert second[0].id in text and second[0].event is not None
        assert second[0].event.type in text
        await pilot.press("escape", "p")
        await settle(pilot)
        assert app.screen.query_one(ResourceTable).row_count == len(first)


async def test_failures_view_lists_exactly_the_failed_deliveries(
    make_app, client, tmp_path
) -> None:
    addons = (await client.integrations.list()).addons
    failed = [
        d
        for a in addons
        for d in await client.integrations.events(a.id, limit=100)
        if d.state != "success"
    ]
    failed.sort(key=lambda d: (d.created_at, int(d.id)), reverse=True)  # newest first
    expected = [f"{d.integration_id}:{d.id}" for d in failed]
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, FailuresScreen)
        table = app.screen.query_one(ResourceTable)
        keys = [r.key.value for r in table.ordered_rows]
        assert keys == expected
        # Refresh costs one integrations.list plus one request per integration, no more.
        before = app.client.requests_sent
        await pilot.press("r")
        await settle(pilot)
        assert app.client.requests_sent - before == 1 + len(addons)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FailureDetailScreen)
        assert app.screen.delivery.state != "success"
