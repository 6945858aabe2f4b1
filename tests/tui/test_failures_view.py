"""The failures view (issue 13, item 3) on the live sandbox: time windows, grouping and a group's
deliveries, follow mode's marks for new rows, the preview after `/`, integrations named by
description and provider, and the integrations' sparklines. New failures are made by writing
through the sandbox: a flag's description changed is delivered to the Datadog integration,
whose key was revoked (every delivery fails with 403)."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta
from typing import Any

from held_transport import Held

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.triage.grouping import error_key
from flagtui.triage.source import LiveSource
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.failures import FailureGroupScreen, FailuresScreen
from flagtui.tui.triage_view import now_utc
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, rows, settle
from .failures import PROJECT, datadog, forget_a_new_failure, keys, new_failures, until
from .faults import html_error
from .helpers import visible_text


async def failed_keys_since(client: AdminClient, minutes: float) -> set[str]:
    window = await LiveSource(client).window(now_utc() - timedelta(minutes=minutes))
    return {f"{f.integration.id}:{f.delivery.id}" for f in window.failures}


def marked(app: FlagtuiApp, selector: str = "#failures") -> set[str]:
    """The rows drawn with the "new" mark (its first cell)."""
    table = app.screen.query_one(selector, ResourceTable)
    return {
        str(row.key.value)
        for row in table.ordered_rows
        if str(getattr(table.get_row(row.key)[0], "plain", "")).strip() == "●"
    }


async def test_windows_show_only_the_failures_inside_them(make_app, client, tmp_path) -> None:
    made = await new_failures(client, 2)
    everything = await LiveSource(client).window(None)
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, FailuresScreen)
        status = visible_text(app, "#failures-status")
        assert f"window all (w) · {everything.total} failures" in status
        # "all" reaches further back than the server holds every delivery (the demo's
        # integrations have thousands, a read lists 100 each): said, not passed off as all.
        back = everything.complete_since
        assert not everything.complete and back is not None
        source = visible_text(app, "#failures-source")
        said = f"live · INCOMPLETE before {back:%Y-%m-%d %H:%M} UTC (the server forgets)"
        assert said in source
        assert set(keys(app)) == {
            f"{f.integration.id}:{f.delivery.id}" for f in everything.failures
        }
        await pilot.press("w")  # all -> 15m
        await settle(pilot)
        recent = await failed_keys_since(client, 15)
        assert made <= recent and len(recent) < everything.total
        assert set(keys(app)) == recent
        assert "window 15m (w)" in visible_text(app, "#failures-status")
        table = app.screen.query_one("#failures", ResourceTable)
        table.move_cursor(row=table.get_row_index(sorted(made)[0]))
        await pilot.pause()
        shown = visible_text(app, "#failures")
        assert "Datadog" in shown and "(datadog)" in shown and "datadog #" not in shown
        assert "s ago" in shown or "just now" in shown  # relative in the rows
        preview = visible_text(app, "#failure-preview")
        assert "Datadog events (key revoked) (datadog)" in preview
        assert re.search(r"\d\d:\d\d UTC \((just now|\d+ s ago)\) · failed · live", preview)
        await pilot.press("z")
        await settle(pilot)
        assert " UTC (" in visible_text(app, "#failure-preview")
        await pilot.press("W", "W")  # 15m -> all -> 7d
        await settle(pilot)
        assert "window 7d (w)" in visible_text(app, "#failures-status")
        assert set(keys(app)) == recent  # the demo's history is older than a week


async def test_grouped_view_counts_and_a_group_opens_to_its_deliveries(
    make_app, client, tmp_path
) -> None:
    grouped = await LiveSource(client).grouped(None)
    hook = await datadog(client)
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("equals_sign")
        await settle(pilot)
        expected = [(f"{g.integration.id}:{g.error_key}", str(g.count)) for g in grouped.groups]
        assert [
            (k, row[2])
            for k, row in zip(
                keys(app, "#failure-groups"), rows(app, "#failure-groups"), strict=True
            )
        ] == expected
        n = len(grouped.groups)
        assert f"{n} group{'' if n == 1 else 's'}" in visible_text(app, "#failures-status")
        group = next(g for g in grouped.groups if g.integration.id == hook.id)
        table = app.screen.query_one("#failure-groups", ResourceTable)
        table.move_cursor(row=table.get_row_index(f"{hook.id}:{group.error_key}"))
        await pilot.pause()
        preview = visible_text(app, "#failure-preview")
        assert f"{group.count} failures · first " in preview
        assert hook.label in preview
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, FailureGroupScreen)
        deliveries = await client.integrations.events(hook.id, limit=100)
        wanted = [
            f"{hook.id}:{d.id}"
            for d in deliveries
            if d.failed and error_key(d.state_details) == group.error_key
        ]
        assert keys(app) == wanted
        assert f"{group.count} failures" in visible_text(app, "#failures-status")
        title = visible_text(app, "#failures-title")
        assert hook.label in title and group.error_key in title
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, FailuresScreen)
        assert visible_text(app, "#failure-groups")


async def test_the_preview_describes_the_highlighted_row_after_filtering(
    make_app, tmp_path
) -> None:
    """Before the fix: after `/`, the preview kept describing a row the filter had hidden."""
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "hx-state" in visible_text(app, ".delivery-preview")  # the newest: hostile
        await pilot.press("slash", *"403")
        await settle(pilot)
        table = app.screen.query_one("#failures", ResourceTable)
        assert table.row_count
        assert all("datadog" in " ".join(row).lower() for row in rows(app, "#failures"))
        preview = visible_text(app, ".delivery-preview")
        assert "status code: 403" in preview and "hx-state" not in preview
        await pilot.press(*"-no-such-failure")
        await settle(pilot)
        assert table.row_count == 0
        assert visible_text(app, ".delivery-preview").strip("─\n ") == ""  # its border only


async def test_the_integration_detail_and_delivery_preview_follow_the_filter(
    make_app, tmp_path
) -> None:
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Deploy pipeline notifications" in visible_text(app, "#integration-detail")
        await pilot.press("slash", *"datadog")
        await settle(pilot)
        detail = visible_text(app, "#integration-detail")
        assert "Datadog events (key revoked)" in detail
        assert "Deploy pipeline" not in detail
        await pilot.press("enter", "enter")  # the filter's box, then the table: its deliveries
        await settle(pilot)
        assert "status code: 403" in visible_text(app, ".delivery-preview")
        await pilot.press("slash", *"no-such-delivery")
        await settle(pilot)
        assert visible_text(app, ".delivery-preview").strip("─\n ") == ""  # its border only


async def test_follow_marks_only_rows_new_since_the_last_read(
    faulty: Any, tmp_path, monkeypatch
) -> None:
    """Rows are marked on a read that brings them, never on the first read, never for the rows
    a failed read could not confirm: the read after a failure marks only what the last good
    read did not show."""
    monkeypatch.setattr(FailuresScreen, "FOLLOW_S", 0.3)  # a read every 0.3 s, not 5
    server, fault = faulty
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"p": {"area": "failures", "project": PROJECT}}))
    check = AdminClient(server.url, server.admin_token, profile="check")
    own = AdminClient(server.url, server.admin_token, profile="p", retry_delays=(0.02, 0.05))
    async with check, own:
        await check.connect()
        app = FlagtuiApp(own, Profile(name="p", url=server.url), state_path=state)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, FailuresScreen)
            assert keys(app) and not marked(app)  # the first read marks nothing
            await pilot.press("F")
            first = screen.answer
            await until(pilot, lambda: screen.answer is not first)
            assert not marked(app)  # read again, nothing new
            assert "following · updated" in visible_text(app, "#failures-status")
            shown = set(keys(app))
            made = await new_failures(check)
            await until(pilot, lambda: made <= set(keys(app)))
            assert made <= marked(app) == set(keys(app)) - shown
            new_rows = [line for line in visible_text(app, "#failures").splitlines() if "●" in line]
            assert any("Datadog" in line for line in new_rows)
            shown = set(keys(app))
            # One integration's deliveries unreadable: the app's read fails as a whole.
            reliable = next(
                a for a in (await check.integrations.list()).addons if a.provider == "teams"
            )
            fault.fail("GET", f"/api/admin/addons/{reliable.id}/events", html_error(502))
            await until(pilot, lambda: "refresh failed" in visible_text(app, "#failures-status"))
            assert set(keys(app)) == shown and not marked(app)
            later = await new_failures(check)
            fault.rules.clear()
            await until(pilot, lambda: later <= set(keys(app)))
            assert later <= marked(app) == set(keys(app)) - shown
            await pilot.press("F")
            await settle(pilot)
            assert "following" not in visible_text(app, "#failures-status")


async def test_bell_rings_on_new_failures_only_when_asked(
    make_app, client, tmp_path, monkeypatch
) -> None:
    app = app_in(make_app, tmp_path, "failures")
    rang: list[bool] = []
    monkeypatch.setattr(app, "bell", lambda: rang.append(True))  # the terminal's, not ours
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await new_failures(client)
        await pilot.press("r")
        await settle(pilot)
        assert marked(app) and not rang  # off by default
        await pilot.press("b")
        assert "bell on" in visible_text(app, "#failures-status")
        await new_failures(client)
        await pilot.press("r")
        await settle(pilot)
        assert rang == [True]
        await pilot.press("r")
        await settle(pilot)
        assert rang == [True]  # nothing new, no bell


async def test_integrations_show_a_sparkline_of_their_failures_over_the_window(
    make_app, client, tmp_path
) -> None:
    made = await new_failures(client, 3)
    hook = await datadog(client)
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "window all (w)" in visible_text(app, "#integrations-status")
        await pilot.press("w")  # all -> 15m, for both triage screens
        await settle(pilot)
        assert "window 15m (w) · one bar: 56 s" in visible_text(app, "#integrations-status")
        recent = await failed_keys_since(client, 15)
        per_integration = {key.split(":")[0] for key in recent}
        table = app.screen.query_one(ResourceTable)
        ids = [str(r.key.value) for r in table.ordered_rows]
        for addon_id, row in zip(ids, rows(app), strict=True):
            count = sum(1 for key in recent if key.startswith(f"{addon_id}:"))
            assert int(row[3]) == count, row
            assert bool(row[4].strip()) == (addon_id in per_integration), row
        trend = rows(app)[ids.index(str(hook.id))][4]
        assert len(trend) == 16 and trend.endswith("█")  # now: the newest span, the busiest
        assert sum(1 for key in recent if key.startswith(f"{hook.id}:")) == len(made)
        line = next(
            line for line in visible_text(app, "#integrations").splitlines() if "Datadog" in line
        )
        assert line.rstrip().endswith("█")  # drawn, not only held
        await pilot.press("5")
        await settle(pilot)
        assert "window 15m (w)" in visible_text(app, "#failures-status")


async def test_the_view_reads_the_integrations_it_saw_last_time_with_their_list(
    sandbox, make_app, tmp_path
) -> None:
    """Opened again (here: by another run of the app), the view asks for the deliveries of the
    integrations its last read listed while the list itself is still on its way."""
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert "Datadog" in visible_text(app, "ResourceTable")
    state = tmp_path / "state-failures.json"
    ids = [int(i) for i in json.loads(state.read_text())["sandbox"]["integrations"].split(",")]
    async with AdminClient(sandbox.url, sandbox.admin_token) as check:
        assert ids == [a.id for a in (await check.integrations.list()).addons]

    held = Held(lambda path: path == "/api/admin/addons")
    client = AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox", transport=held)
    again = FlagtuiApp(client, Profile(name="sandbox", url=sandbox.url), state_path=state)
    async with again.run_test(size=(120, 30)) as pilot:
        for addon_id in ids:
            path = f"/api/admin/addons/{addon_id}/events"
            await asyncio.wait_for(held.answer_to(path), 10)
        assert "/api/admin/addons" not in held.answered
        held.release()
        await settle(pilot)
        assert "Datadog" in visible_text(again, "ResourceTable")
    await client.aclose()


async def test_a_window_the_server_forgot_says_incomplete(
    make_app, client, sandbox, tmp_path
) -> None:
    """Issue 23, item 1: the server alone. Its last hour holds every delivery (the demo's
    history reaches back further), until a failure of the hour is forgotten (it keeps about
    the newest 100): then the view says the hour is INCOMPLETE, not an empty all-clear."""
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("w", "w")  # all -> 15m -> 1h
        await settle(pilot)
        assert "window 1h (w)" in visible_text(app, "#failures-status")
        assert "live · complete since " in visible_text(app, "#failures-source")
        for noisy in (2, 5):  # a flaky endpoint and a revoked key: failures of their own
            await client.integrations.set_enabled(noisy, False)
        forget_a_new_failure(sandbox.db_path)
        for n in range(110):  # 100+ deliveries, none failed: the one above is forgotten
            change = [{"op": "replace", "path": "/description", "value": f"forgetting {n}"}]
            await client.features.patch("default", "admin-async-emails", change)
        await pilot.press("r")
        await settle(pilot)
        said = visible_text(app, "#failures-source")
        assert "live · INCOMPLETE before " in said
        assert "window 1h (w) · no failures" in visible_text(app, "#failures-status")
