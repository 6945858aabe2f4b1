"""Jumps between related records: an event or a delivery to its flag (live, archived or gone),
a flag to its recent events and the event log filtered to it, a user to the events they made,
and a delivery's triggering change shown above its details."""

from __future__ import annotations

import datetime as dt
import uuid

from textual.containers import VerticalScroll
from textual.widgets import Input

from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import EventRecord, IntegrationEvent
from flagtui.tui.screens.deliveries import DeliveriesScreen, DeliveryDetailScreen
from flagtui.tui.screens.event_detail import EventDetailScreen
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.users import UsersScreen
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, settle
from .helpers import screen_text, toast_text, visible_text
from .hostile import hostile_feature

PROJECT = "payments"


def keys(app) -> list[str]:
    return [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]


async def patched_flag(client) -> tuple[str, str, str]:
    """A payments flag whose description was just changed: (name, old, new)."""
    flag = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0]
    old = (await client.features.get(PROJECT, flag.name)).description or ""
    new = f"jump {uuid.uuid4().hex[:8]}"
    await client.features.patch(
        PROJECT, flag.name, [{"op": "replace", "path": "/description", "value": new}]
    )
    return flag.name, old, new


async def test_event_to_its_flag_to_its_recent_events_to_the_event_log(
    make_app, client, tmp_path
) -> None:
    name, _, new = await patched_flag(client)
    recent = await client.events.search(feature=name, limit=5)
    every = await client.events.search(feature=name, limit=50)
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#feature", Input).value = name
        await pilot.press("s", "enter")
        await settle(pilot)
        assert keys(app)[0] == str(recent.events[0].id)
        await pilot.press("enter", "o")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert name in visible_text(app, "#feature") and new in visible_text(app, "#feature")
        app.screen.query_one("#feature", VerticalScroll).scroll_end(animate=False)
        await settle(pilot)
        listed = visible_text(app, "#feature-more")
        assert "Recent events, newest first" in listed and "h: all in the event log" in listed
        ids = [f"#{e.id}" for e in recent.events]
        positions = [listed.index(i) for i in ids]
        assert positions == sorted(positions)  # newest first, as the server answered
        assert recent.events[0].type in listed
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        assert app.screen.query_one("#feature", Input).value == name
        assert keys(app) == [str(e.id) for e in every.events]
        n = len(every.events)
        events = "event" if n == 1 else "events"
        assert f"page 1 · {n} of {n} {events} · 50 a page · last page" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, EventDetailScreen)


async def test_the_events_list_opens_the_flag_of_the_highlighted_event(
    make_app, client, tmp_path
) -> None:
    name, _, _ = await patched_flag(client)
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#feature", Input).value = name
        await pilot.press("s", "enter")
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert app.screen.feature is not None and app.screen.feature.name == name
        assert name in visible_text(app, "#feature")


async def test_an_event_that_names_no_flag_says_so(make_app, client, tmp_path) -> None:
    await client.feature_types.update_lifetime("release", 41)
    event = (await client.events.search(type="feature-type-updated", limit=1)).events[0]
    assert event.feature_name is None
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.push_screen(EventDetailScreen(event))
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, EventDetailScreen)
        assert "This event names no flag: nothing to open." in toast_text(app)


async def test_an_archived_flag_opens_as_archived(make_app, client, tmp_path) -> None:
    archived = (await client.archived.list(PROJECT, limit=1)).features[0]
    event = EventRecord(
        id=1, created_at=dt.datetime.now(dt.UTC), type="feature-archived",
        project=PROJECT, feature_name=archived.name,
    )  # fmt: skip
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(EventDetailScreen(event))
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        shown = visible_text(app, "#feature")
        assert archived.name in shown and "Archived" in shown and "v revives it" in shown


async def test_a_flag_that_is_gone_says_so(make_app, client, tmp_path) -> None:
    gone = f"deleted-{uuid.uuid4().hex[:8]}"
    event = EventRecord(
        id=1, created_at=dt.datetime.now(dt.UTC), type="feature-deleted",
        project=PROJECT, feature_name=gone,
    )  # fmt: skip
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(EventDetailScreen(event))
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot, rounds=4)
        assert isinstance(app.screen, FeatureDetailScreen)
        shown = visible_text(app, "#feature")
        assert f"Flag '{gone}' is not in project 'payments'" in shown
        assert "not among its live flags nor its archived ones" in shown
    assert (await client.events.search(feature=gone, limit=1)).events == []


async def subscribed_addon(client, event_type: str) -> int:
    for addon in (await client.integrations.list()).addons:
        if addon.enabled and event_type in (addon.events or []):
            return int(addon.id)
    raise AssertionError(f"no integration of the demo subscribes to {event_type}")


async def test_delivery_shows_its_triggering_change_first_and_opens_its_flag(
    make_app, client, tmp_path
) -> None:
    addon_id = await subscribed_addon(client, "feature-metadata-updated")
    name, old, new = await patched_flag(client)
    newest = (await client.integrations.events(addon_id, limit=1))[0]
    assert newest.event is not None and newest.event.feature_name == name
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index(str(addon_id)))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        assert keys(app)[0] == newest.id
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DeliveryDetailScreen)
        assert "Triggering change" not in visible_text(app, "#delivery")
        await pilot.press("c")
        await settle(pilot)
        seen = visible_text(app, "#delivery")  # without scrolling
        assert "Triggering change" in seen and "feature-metadata-updated" in seen
        assert f'"{old}" → "{new}"' in seen and "by" in seen and "admin" in seen
        lines = seen.splitlines()
        first = next(i for i, line in enumerate(lines) if "Triggering change" in line)
        assert all("Delivery details" not in line for line in lines[:first])
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert new in visible_text(app, "#feature")
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        await pilot.press("o")  # from the list, the highlighted delivery's flag
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert app.screen.feature is not None and app.screen.feature.description == new


async def test_a_failure_opens_the_flag_its_event_names(make_app, client, tmp_path) -> None:
    name, _old, new = await patched_flag(client)
    failed = [
        (a.id, d)
        for a in (await client.integrations.list()).addons
        for d in await client.integrations.events(a.id, limit=5)
        if d.failed and d.event is not None and d.event.feature_name == name
    ]
    assert failed, "the demo has an integration that fails on every delivery"
    addon_id, delivery = failed[0]
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index(f"{addon_id}:{delivery.id}"))
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert new in visible_text(app, "#feature")


async def test_a_user_opens_the_events_they_made(make_app, client, tmp_path) -> None:
    authored = next(
        e
        for e in (await client.events.search(project=PROJECT, limit=100)).events
        if e.created_by_user_id and e.created_by_user_id > 0 and e.created_by
    )
    user_id, username = authored.created_by_user_id, authored.created_by
    assert user_id is not None and username is not None
    theirs = await client.events.search(created_by=user_id, limit=50)
    assert theirs.events and {e.created_by_user_id for e in theirs.events} == {user_id}
    app = app_in(make_app, tmp_path, "users")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s", *username)
        await settle(pilot)
        assert isinstance(app.screen, UsersScreen)
        table = app.screen.query_one(ResourceTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(str(user_id)))
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        assert visible_text(app, "#author") == str(user_id)
        assert keys(app) == [str(e.id) for e in theirs.events]
        await pilot.press("escape")
        assert isinstance(app.screen, UsersScreen)


async def test_a_hostile_change_is_shown_as_data(make_app, client, sandbox, tmp_path) -> None:
    name = await hostile_feature(client, sandbox.db_path)
    event = (await client.events.search(feature=name, limit=1)).events[0]
    delivery = IntegrationEvent(
        id="1", integration_id=1, created_at=event.created_at, state="failed", event=event
    )
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.push_screen(DeliveryDetailScreen(delivery, "webhook #1"))
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        text = visible_text(app, "#delivery")
        assert "Triggering change" in text and "description" in text
        assert "\u202e" not in text and "\x1b" not in text
        assert "<U+202E>evil" in text and "[/x] [link=https://evil.example]" in text
        await pilot.press("o")
        await settle(pilot)
        assert "<U+202E>evil" in visible_text(app, "#feature")
