"""Times say their zone (issue 11, item 8): local time with the zone named, in every area, and
one key (or the palette) switches every time on screen to UTC and back."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.format import when
from flagtui.tui.screens.deliveries import DeliveriesScreen
from flagtui.tui.screens.event_detail import EventDetailScreen
from flagtui.tui.screens.events import EventsScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.triage_view import span
from testkit.pilot import settle

from .areas import app_in, rows
from .helpers import screen_text, visible_text

ZONE = r"([A-Z]{3,4}|[+-]\d{2,4})"
STAMP = re.compile(rf"\d{{4}}-\d\d-\d\d \d\d:\d\d {ZONE}")


def zones(text: str) -> set[str]:
    return set(STAMP.findall(text))


def header_zone(text: str) -> str | None:
    """The zone the event log's Time column names in its header (its rows all share it)."""
    found = re.search(rf" Time \({ZONE}\) ", text)
    return found.group(1) if found else None


async def test_events_in_berlin_time_and_utc_on_z(make_app, client, tmp_path, in_zone) -> None:
    """Before the fix: times were UTC with no zone named, and there was no toggle."""
    in_zone("Europe/Berlin")
    event = (await client.events.search(limit=1)).events[0]
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, EventsScreen)
        # The newest page shares one zone: named once, in the Time column's header, and each
        # time whole (not clipped) under it.
        assert header_zone(screen_text(app)) in {"CET", "CEST"}
        assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", row[1]) for row in rows(app))
        app.push_screen(EventDetailScreen(event))
        await settle(app, pilot)
        local = visible_text(app, "#event")
        assert zones(local) <= {"CET", "CEST"} and zones(local)
        await pilot.press("z")
        await settle(app, pilot)
        assert zones(visible_text(app, "#event")) == {"UTC"}
        utc_hour = event.created_at.strftime("%H:%M")
        assert f"{event.created_at:%Y-%m-%d} {utc_hour} UTC" in visible_text(app, "#event")
        # The area under the detail redraws its rows when shown again.
        await pilot.press("escape")
        await settle(app, pilot)
        assert header_zone(screen_text(app)) == "UTC"
        await pilot.press("z")
        await settle(app, pilot)
        assert header_zone(screen_text(app)) in {"CET", "CEST"}


async def test_toggle_is_in_the_palette(make_app, client: AdminClient, in_zone) -> None:
    """Before the fix: there is no such command."""
    in_zone("Europe/Berlin")
    project = (await client.projects.list())[0].id
    name = (await client.features.search(FeatureQuery(project=project, limit=1))).features[0].name
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(project, name))
        await settle(app, pilot)
        assert zones(visible_text(app, "#feature")) <= {"CET", "CEST"}
        await pilot.press("ctrl+p")
        await settle(app, pilot)
        await pilot.press(*"UTC")
        await settle(app, pilot)
        assert "Local time/UTC" in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        assert zones(visible_text(app, "#feature")) == {"UTC"}


async def test_delivery_times_fit_their_column(make_app, client, tmp_path, in_zone) -> None:
    """A zone without an abbreviation still fits the deliveries' time column (a guard: main
    already named the zone here)."""
    in_zone("America/Sao_Paulo")  # a zone without an abbreviation: "-03"
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        times = [row[0] for row in rows(app)]
        assert times and all(t.endswith(" -03") for t in times)
        first_line = visible_text(app, "#deliveries").splitlines()[1]
        assert times[0] in first_line


def test_a_span_names_its_date_and_zone_once_so_a_gap_fits_a_line(in_zone) -> None:
    """Before the fix: a gap on an earlier day named both dates and zones,
    and the archive's gap line on an 80-column screen lost its end (seen just after midnight)."""
    in_zone("UTC")
    today = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    earlier = today - timedelta(days=2)
    day = when(earlier, date_only=True)
    assert span(earlier, earlier + timedelta(minutes=30)) == f"{day} 12:00–12:30 UTC"
    assert span(today, today + timedelta(minutes=30)) == "12:00–12:30 UTC"
    later = earlier + timedelta(days=1)
    assert span(earlier, later) == f"{day} 12:00 UTC–{when(later, date_only=True)} 12:00 UTC"
