"""The event log (operation 9): filtered search, cursor paging both ways, the detail's diff."""

from __future__ import annotations

from textual.widgets import Input

from flagtui.tui.details import json_diff
from flagtui.tui.screens.event_detail import EventDetailScreen
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, settle
from .helpers import visible_text


def keys(app) -> list[str]:
    return [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]


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
        lines = str(visible_text(app, "ResourceTable")).splitlines()
    rows = {line.split()[0]: line for line in lines[1:] if line.split()}
    named = [e for e in page.events if str(e.id) in rows and 8 < len(e.feature_name or "") <= 16]
    assert len(named) >= 3, rows  # names the old width cut
    for event in named:
        assert f" {event.feature_name} " in rows[str(event.id)]
