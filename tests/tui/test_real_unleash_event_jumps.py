"""The event log's author and date filters, the jumps event -> flag -> recent events, and a
delivery's cause and flag, on the sandbox and (marker `unleash`) on a real Unleash: see
test_real_unleash_flows.py for the `server` fixture. Real Unleash filters the author by user id;
its admin token acts as -42."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Input

from flagtui.tui.screens.deliveries import DeliveriesScreen, DeliveryDetailScreen
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.table import ResourceTable

from .areas import settle
from .helpers import toast_text, visible_text
from .real_server import Server, a_feature, a_feature_with_events, poll


def keys(app) -> list[str]:
    return [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]


async def search(app, pilot, **fields: str) -> None:
    for field, value in fields.items():
        app.screen.query_one(f"#{field}", Input).value = value
    await pilot.press("s", "enter")
    await settle(pilot)


async def test_event_log_by_author_and_date(server: Server) -> None:
    name = await a_feature_with_events(server)
    newest = (await server.check.events.search(feature=name, limit=1)).events[0]
    author, day = newest.created_by_user_id, newest.created_at.date()
    assert author is not None
    check = server.check
    theirs = await check.events.search(feature=name, created_by=author, since=day, until=day)
    before = day - dt.timedelta(days=1)
    earlier = await check.events.search(feature=name, since=before, until=before)
    assert theirs.events and {e.created_by_user_id for e in theirs.events} == {author}
    app = server.app("events")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        await search(app, pilot, feature=name, author=str(author), **{"from": str(day)})
        await search(app, pilot, to=str(day))
        shown = keys(app)
        status = visible_text(app, "#events-status")
        await search(app, pilot, author="", **{"from": str(before), "to": str(before)})
        shown_earlier = keys(app)
        assert "Request failed" not in toast_text(app)
    assert shown == [str(e.id) for e in theirs.events]
    assert f"{len(theirs.events)} of {theirs.total} events" in status
    assert shown_earlier == [str(e.id) for e in earlier.events]
    if server.real:  # a flag made just now has no event the day before
        assert shown_earlier == []


async def test_event_opens_its_flag_which_lists_its_recent_events(server: Server) -> None:
    name = await a_feature_with_events(server)
    recent = await server.check.events.search(feature=name, limit=5)
    app = server.app("events")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await search(app, pilot, feature=name)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert name in visible_text(app, "#feature")
        app.screen.query_one("#feature", VerticalScroll).scroll_end(animate=False)
        await settle(pilot)
        listed = visible_text(app, "#feature-more")
        assert "Request failed" not in toast_text(app)
    assert f"#{recent.events[0].id}" in listed and recent.events[0].type in listed
    assert f"({len(recent.events)} of {recent.total})" in listed


async def test_a_delivery_shows_its_cause_and_opens_its_flag(
    server: Server,
    request: pytest.FixtureRequest,
) -> None:
    if server.real:  # a webhook subscribed to feature-metadata-updated that always fails
        addon_id = int(request.getfixturevalue("webhook_id"))
    else:
        addons = (await server.check.integrations.list()).addons
        addon_id = next(
            int(a.id) for a in addons if a.enabled and "feature-metadata-updated" in a.events
        )
    name = await a_feature(server)
    new = f"cause {uuid.uuid4().hex[:8]}"

    async def change_and_find() -> object:
        await server.check.features.patch(
            server.project, name, [{"op": "replace", "path": "/description", "value": new}]
        )
        listed = await server.check.integrations.events(addon_id, limit=50)
        return next((d for d in listed if d.event and d.event.feature_name == name), None)

    # Real Unleash caches its integrations for a minute: the change may need repeating.
    delivery = await poll(change_and_find, lambda found: found is not None, 90)
    assert delivery is not None
    app = server.app("integrations")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index(str(addon_id)))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index(delivery.id))
        await pilot.press("enter", "c")
        await settle(pilot)
        assert isinstance(app.screen, DeliveryDetailScreen)
        seen = visible_text(app, "#delivery")
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        flag = visible_text(app, "#feature")
        assert "Request failed" not in toast_text(app)
    assert "Triggering change" in seen and "feature-metadata-updated" in seen
    assert f'→ "{new}"' in seen and name in seen
    assert name in flag and new in flag
