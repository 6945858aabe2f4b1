"""The event log (operation 9): filtered search, cursor paging both ways, the detail's diff."""

from __future__ import annotations

import datetime as dt

from textual.widgets import Input

from flagtui.tui.details import json_diff
from flagtui.tui.screens.event_detail import EventDetailScreen
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, settle
from .helpers import visible_text


def keys(app) -> list[str]:
    return [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]


def shown_table(app) -> tuple[list[str], dict[str, str]]:
    """The table as drawn: its header's words, and each row's line by the event's id."""
    header, *lines = str(visible_text(app, "ResourceTable")).splitlines()
    return header.split(), {line.split()[0]: line for line in lines if line.split()}


def test_diff_marks_removed_and_added_lines() -> None:
    text = json_diff({"a": 1, "b": 2}, {"a": 1, "b": 3})
    lines = text.plain.splitlines()
    assert '-  "b": 2' in lines and '+  "b": 3' in lines and '   "a": 1,' in lines


async def test_type_filter_shows_only_that_type_and_pages(make_app, client, tmp_path) -> None:
    first = await client.events.search(type="feature-completed", limit=50)
    assert first.next_cursor is not None
    second = await client.events.search(
        type="feature-completed", limit=50, cursor=first.next_cursor
    )
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        assert len(keys(app)) == 50
        await pilot.press("T", *"feature-comp", "enter")
        await settle(pilot)
        assert app.screen.query_one("#type", Input).value == "feature-completed"
        assert keys(app) == [str(e.id) for e in first.events]
        assert {e.type for e in app.screen.events} == {"feature-completed"}
        await pilot.press("n")
        await settle(pilot)
        assert keys(app) == [str(e.id) for e in second.events]
        await pilot.press("p")
        await settle(pilot)
        assert keys(app) == [str(e.id) for e in first.events]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EventDetailScreen)
        assert app.screen.event.id == first.events[0].id


async def test_project_feature_and_text_filters_match_the_client(
    make_app, client, tmp_path
) -> None:
    expected = await client.events.search(project="payments", query="rollout", limit=50)
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#project", Input).value = "payments"
        app.screen.query_one("#query", Input).value = "rollout"
        await pilot.press("s", "enter")
        await settle(pilot)
        assert keys(app) == [str(e.id) for e in expected.events]
        await pilot.press("plus")
        await settle(pilot)
        assert app.screen.limit == 100


async def test_unknown_type_sends_nothing(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.client.requests_sent
        app.screen.query_one("#type", Input).value = "no-such-type"
        await pilot.press("s", "enter")
        await settle(pilot)
        assert app.client.requests_sent == before
        assert "not an event type" in visible_text(app, "#events-status")


async def test_feature_names_keep_a_fair_width_at_100_columns(make_app, client, tmp_path) -> None:
    """At 100 columns the Feature column was cut to its floor (8: "refund-…") beside 23 of
    Type and 20 of "Created by": the columns with a maximum now give it 16 first."""
    page = await client.events.search(limit=50)
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        _, rows = shown_table(app)
    named = [e for e in page.events if str(e.id) in rows and 8 < len(e.feature_name or "") <= 16]
    assert len(named) >= 3, rows  # names the old width cut
    for event in named:
        assert f" {event.feature_name} " in rows[str(event.id)]


async def test_the_zone_is_named_once_in_the_header_at_80_columns(make_app, client, tmp_path):
    """At 80 columns each row said "UTC" (4 columns) while a flag's name had 9: the zone is now
    the Time column's header where every row shares it, and names of up to 13 show whole."""
    page = await client.events.search(limit=50)
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 50)) as pilot:  # 80 wide; tall, for more names
        await settle(pilot)
        header, rows = shown_table(app)
    assert header[:3] == ["ID", "Time", "(UTC)"]
    assert rows and not [row for row in rows.values() if "UTC" in row]
    on_screen = [e for e in page.events if str(e.id) in rows and e.feature_name]
    whole = [e for e in on_screen if 9 < len(e.feature_name or "") <= 13]
    cut = [e for e in on_screen if len(e.feature_name or "") > 13]
    assert whole and len(cut) >= 5, rows  # names the old width cut to 8 and `…`
    for event in whole:
        assert f" {event.feature_name} " in rows[str(event.id)]
    for event in cut:
        assert f" {(event.feature_name or '')[:12]}… " in rows[str(event.id)]


async def test_rows_keep_their_zone_across_a_change_to_summer_time(
    make_app, client, in_zone, tmp_path
):
    """Berlin went from CET to CEST on 2025-03-30 at 01:00 UTC: a page across it names no one
    zone in the header, and each row keeps its own."""
    in_zone("Europe/Berlin")
    shift = dt.datetime(2025, 3, 30, 1, tzinfo=dt.UTC)
    page = await client.events.search(
        since=dt.date(2025, 3, 29), until=dt.date(2025, 3, 31), limit=50
    )
    zones = {e.id: "CET" if e.created_at < shift else "CEST" for e in page.events}
    assert set(zones.values()) == {"CET", "CEST"}, zones  # the sandbox's events span it
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Time (CEST)" in visible_text(app, "ResourceTable")  # June's page: one zone
        app.screen.query_one("#from", Input).value = "2025-03-29"
        app.screen.query_one("#to", Input).value = "2025-03-31"
        app.screen.query_one("#to", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        header, rows = shown_table(app)
    assert header[:3] == ["ID", "Time", "Type"]
    shown = {int(key): line.split()[3] for key, line in rows.items()}
    assert shown == {i: zone for i, zone in zones.items() if i in shown} and len(shown) > 10
    assert set(shown.values()) == {"CET", "CEST"}
