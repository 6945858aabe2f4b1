"""The event log's last page, type picker, author and date filters, and what it says when the
server cannot filter by author or date (a POST /events/search server: Unleash before 6.1)."""

from __future__ import annotations

import datetime as dt

import httpx
from textual.widgets import Input

from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import ServerInfo
from flagtui.contract import EVENT_TYPES
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.widgets.event_type_picker import EventTypePicker
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, settle
from .helpers import toast_text, visible_text

PROJECT = "payments"


def keys(app) -> list[str]:
    return [r.key.value for r in app.screen.query_one(ResourceTable).ordered_rows]


async def flag_with_events(sandbox, client, count: int) -> str:
    """A flag of the demo with exactly `count` events: description changes added to its own."""
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    have = (await client.events.search(feature=name, limit=1)).total
    assert have is not None and have <= count
    headers = {"Authorization": sandbox.admin_token}
    async with httpx.AsyncClient(base_url=sandbox.url, headers=headers) as http:
        for n in range(count - have):
            patch = [{"op": "replace", "path": "/description", "value": f"change {n}"}]
            done = await http.patch(f"/api/admin/projects/{PROJECT}/features/{name}", json=patch)
            assert done.status_code == 200, done.text
    return name


async def search(app, pilot, **fields: str) -> None:
    for field, value in fields.items():
        app.screen.query_one(f"#{field}", Input).value = value
    await pilot.press("s", "enter")
    await settle(pilot)


async def test_a_full_last_page_says_so_and_n_stays_on_it(
    make_app, client, sandbox, tmp_path
) -> None:
    name = await flag_with_events(sandbox, client, 100)
    events = await client.events.search(feature=name, limit=100)
    assert events.total == 100 and len(events.events) == 100
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await search(app, pilot, feature=name)
        assert keys(app) == [str(e.id) for e in events.events[:50]]
        assert "last page" not in visible_text(app, "#events-status")
        await pilot.press("n")
        await settle(pilot)
        assert keys(app) == [str(e.id) for e in events.events[50:]]
        status = visible_text(app, "#events-status")
        assert "page 2 · 50 of 100 events · 50 a page · last page" in status
        sent = app.client.requests_sent
        await pilot.press("n")
        await settle(pilot)
        assert app.client.requests_sent == sent  # nothing asked past the end
        assert keys(app) == [str(e.id) for e in events.events[50:]]
        assert "This is the last page." in toast_text(app)
        assert "page 2" in visible_text(app, "#events-status")


async def test_type_picked_from_the_list(make_app, client, tmp_path) -> None:
    first = next(t for t in EVENT_TYPES if "tagged" in t)
    expected = await client.events.search(type=first, limit=50)
    assert expected.events
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        assert isinstance(app.screen, EventTypePicker)
        assert "feature-created" in visible_text(app, "#type-list")
        await pilot.press(*"tagged")
        await settle(pilot)
        listed = visible_text(app, "#type-list")
        assert first in listed and "feature-created" not in listed
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        assert visible_text(app, "#type") == first
        assert keys(app) == [str(e.id) for e in expected.events]
        await pilot.press("T", "escape")  # closed without change
        await settle(pilot)
        assert visible_text(app, "#type") == first


async def test_author_filter_is_a_user_id(make_app, client, tmp_path) -> None:
    newest = (await client.events.search(project=PROJECT, limit=20)).events
    author = next(e.created_by_user_id for e in newest if e.created_by_user_id)
    assert author is not None
    expected = await client.events.search(project=PROJECT, created_by=author, limit=50)
    assert expected.events and {e.created_by_user_id for e in expected.events} == {author}
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await search(app, pilot, project=PROJECT, author=str(author))
        assert keys(app) == [str(e.id) for e in expected.events]
        sent = app.client.requests_sent
        await search(app, pilot, author="knovak")
        assert app.client.requests_sent == sent
        said = visible_text(app, "#events-status")
        assert "author: 'knovak' is not a user id (a number, like 2)." in said


async def test_date_range_filters_the_log(make_app, client, tmp_path) -> None:
    day = (await client.events.search(project=PROJECT, limit=1)).events[0].created_at.date()
    before = day - dt.timedelta(days=2)
    expected = await client.events.search(project=PROJECT, since=before, until=day, limit=50)
    assert expected.events
    assert all(before <= e.created_at.date() <= day for e in expected.events)
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await search(app, pilot, project=PROJECT, **{"from": str(before), "to": str(day)})
        assert keys(app) == [str(e.id) for e in expected.events]
        sent = app.client.requests_sent
        await search(app, pilot, **{"from": "2026-13-01"})
        assert "from: '2026-13-01' is not a date; write it as yyyy-mm-dd." in visible_text(
            app, "#events-status"
        )
        await search(app, pilot, **{"from": str(day), "to": str(before)})
        assert f"from ({day}) is after to ({before})" in visible_text(app, "#events-status")
        assert app.client.requests_sent == sent


async def test_a_server_without_date_search_says_so(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert visible_text(app, "#events-note") == ""
        app.client.server = ServerInfo(version="5.12.8", edition="oss")
        sent = app.client.requests_sent
        await search(app, pilot, **{"from": "2026-11-01"})
        assert app.client.requests_sent == sent
        note = visible_text(app, "#events-note")
        assert "This server cannot filter events by author or date (Unleash 6.1 can)" in note
        assert "cannot filter events by author or date: Unleash 6.1" in visible_text(
            app, "#events-status"
        )
