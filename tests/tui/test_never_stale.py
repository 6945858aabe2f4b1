"""Never stale, never stuck (issue 11, item 5): `r` asks the server, a failed read says so in the
area (never "loading…" left behind), an area whose first read failed recovers with `r`, a failed
refresh keeps the last good rows marked with their age, and the header says when the server
stopped answering and when it is back.

The server goes away for real (a sandbox of the test's own, stopped and started again on the same
port); 5xx and HTML answers come from `FaultApp`, the loopback fault server of the fault matrix.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from textual.widgets import Select

from flagtui.api.feature_query import FeatureQuery
from flagtui.sandbox import SandboxServer
from flagtui.sandbox.app import attach_database
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.deliveries import DeliveriesScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.table import ResourceTable

from .faults import PROJECT, html_error, json_error
from .helpers import screen_text, visible_text
from .restarts import HOUR, header, restart, settled

LOADING = ("loading…", "loading page 1…", "reading integrations…", "searching…")


def said(app: FlagtuiApp, selector: str) -> str:
    """The widget's visible text, its wrapped lines joined again."""
    return re.sub(r"\s*\n\s*", " ", visible_text(app, selector)).strip()


def row_count(app: FlagtuiApp) -> int:
    return app.screen.query_one(ResourceTable).row_count


async def test_r_on_features_asks_the_server_and_keeps_the_rows_with_their_age(
    build: Any, own_server: list[SandboxServer]
) -> None:
    server = own_server[0]
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        shown = row_count(app)
        assert shown > 0
        assert re.search(r"page 1/\d+ · \d+ features", said(app, "#page-status"))
        server.stop()
        await pilot.press("r")  # within the client's 30 s search cache
        await settled(app, pilot)
        status = said(app, "#page-status")
        assert re.search(rf"rows from {HOUR}, (just now|\d+ s ago); refresh failed:", status)
        assert "GET /api/admin/search/features (profile p) failed: Unreachable" in status
        assert row_count(app) == shown
        assert re.search(rf"⚠ not answering since {HOUR} \(Unreachable\)", header(app))
        restart(own_server)
        await pilot.press("r")
        await settled(app, pilot)
        assert re.search(r"page 1/\d+ · \d+ features", said(app, "#page-status"))
        assert "refresh failed" not in screen_text(app)
        assert re.search(rf"✓ answering again since {HOUR}", header(app))


async def test_r_on_features_with_the_search_budget_spent_still_asks_the_server(
    build: Any, faulty: Any
) -> None:
    server, fault = faulty
    # Unleash 8.2's limit, shrunk to one search: r is answered from the project's list.
    attach_database(fault.inner, server.db_path, search_limit=1)
    app = build(server.url, server.admin_token)
    listed = f"/api/admin/projects/{PROJECT}/features"
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        assert fault.count("GET", "/api/admin/search/features") == 1
        assert fault.count("GET", listed) == 0
        await pilot.press("r")
        await settled(app, pilot)
        assert fault.count("GET", listed) == 1
        await pilot.press("r")
        await settled(app, pilot)
        assert fault.count("GET", listed) == 2
        assert fault.count("GET", "/api/admin/search/features") == 1
        assert re.search(r"page 1/\d+ · \d+ features", said(app, "#page-status"))


async def test_r_with_the_search_budget_spent_says_when_it_will_ask(
    build: Any, faulty: Any
) -> None:
    server, fault = faulty
    # Three searches: the first page, the next one read ahead, the page of the stage filter.
    attach_database(fault.inner, server.db_path, search_limit=3)
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        app.screen.query_one("#stage", Select).value = "live"
        await settled(app, pilot)
        assert fault.count("GET", "/api/admin/search/features") == 3
        shown = row_count(app)
        assert shown > 0
        await pilot.press("r")  # only the search endpoint filters by stage; none is left
        await settled(app, pilot)
        status = said(app, "#page-status")
        assert re.search(rf"rows from {HOUR}, (just now|\d+ s ago); .*retrying in \d", status)
        assert row_count(app) == shown
        assert fault.count("GET", "/api/admin/search/features") == 3


FIRST_READS = [
    # A 500 is the server answering (other reads succeed): the header does not cry wolf.
    pytest.param(
        "/api/admin/projects",
        json_error(500, "InternalError", "db down"),
        1,
        r"^ p  http",
        id="projects-500",
    ),
    # A proxy's 502 says the server behind it is gone (the read is retried twice).
    pytest.param(
        "/api/admin/feature-types",
        html_error(502),
        3,
        rf"⚠ failing since {HOUR} \(502 ServerError\)",
        id="types-502-html",
    ),
]


@pytest.mark.parametrize(("path", "respond", "times", "in_header"), FIRST_READS)
async def test_features_whose_first_read_failed_say_so_and_recover_with_r(
    build: Any, faulty: Any, path: str, respond: Any, times: int, in_header: str
) -> None:
    server, fault = faulty
    fault.fail("GET", path, respond, times=times)  # the first read, and its retries
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        status = said(app, "#page-status")
        assert f"Read failed: GET {path} (profile p) failed: 5" in status
        assert "r: try again" in status
        assert not any(line in screen_text(app) for line in LOADING)
        assert re.search(in_header, header(app))
        await pilot.press("r")
        await settled(app, pilot)
        assert row_count(app) > 0
        assert re.search(r"page 1/\d+ · \d+ features", said(app, "#page-status"))
        assert "Read failed" not in screen_text(app)
        assert visible_text(app, "#project")  # the project picker got its choices


# Access reloads with f5 (r is typed into its user search).
AREAS = [
    pytest.param("feature-types", "/api/admin/feature-types", "#types-status", "r", id="types"),
    pytest.param("environments", "/api/admin/projects", "#envs-status", "r", id="environments"),
    pytest.param(
        "integrations", "/api/admin/addons", "#integrations-status", "r", id="integrations"
    ),
    pytest.param("failures", "/api/admin/addons", "#failures-status", "r", id="failures"),
    pytest.param("events", "/api/admin/events/search", "#events-status", "r", id="events"),
    pytest.param(
        "change-requests", "/api/admin/projects", "#area-status", "r", id="change-requests"
    ),
    pytest.param("access", "/api/admin/roles", "#area-status", "f5", id="access"),
    pytest.param(
        "context-fields", "/api/admin/context", "#context-status", "r", id="context-fields"
    ),
]


@pytest.mark.parametrize(("area", "path", "status", "reload_key"), AREAS)
async def test_a_failed_first_read_is_said_in_the_area_and_r_recovers(
    build: Any, faulty: Any, area: str, path: str, status: str, reload_key: str
) -> None:
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)  # Features read projects and types: fail the area's own read
        method = "POST" if "events" in path else "GET"
        fault.fail(method, path, json_error(500, "InternalError", "db down"), times=1)
        app.switch_area(area)
        await settled(app, pilot)
        line = said(app, status)
        assert f"Read failed: {method} {path}" in line
        assert f"500 InternalError: db down; {reload_key}: try again" in line
        assert not any(line in screen_text(app) for line in LOADING)
        await pilot.press(reload_key.replace("^", "ctrl+"))
        await settled(app, pilot)
        assert row_count(app) > 0
        assert "Read failed" not in screen_text(app)


async def test_deliveries_that_fail_never_stay_loading(build: Any, faulty: Any) -> None:
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        app.switch_area("integrations")
        await settled(app, pilot)
        fault.fail("GET", "/events", html_error(503))
        await pilot.press("enter")
        await settled(app, pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        line = said(app, "#deliveries-status")
        assert "Read failed: GET /api/admin/addons/" in line
        assert "503 ServerError: Service Unavailable (text/html)" in line
        assert "loading page 1…" not in screen_text(app)
        fault.rules.clear()
        await pilot.press("r")
        await settled(app, pilot)
        assert row_count(app) > 0
        assert "page 1 · deliveries 1–" in said(app, "#deliveries-status")


async def test_a_failed_refresh_of_integrations_keeps_its_rows_with_their_age(
    build: Any, faulty: Any
) -> None:
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        app.switch_area("integrations")
        await settled(app, pilot)
        shown = row_count(app)
        assert shown > 0
        fault.fail("GET", "/api/admin/addons", html_error(502))
        await pilot.press("r")
        await settled(app, pilot)
        line = said(app, "#integrations-status")
        assert re.search(rf"rows from {HOUR}, (just now|\d+ s ago); refresh failed: GET", line)
        assert "502 ServerError: Bad Gateway (text/html)" in line
        assert row_count(app) == shown
        assert re.search(rf"⚠ failing since {HOUR} \(502 ServerError\)", header(app))
        fault.rules.clear()
        await pilot.press("r")
        await settled(app, pilot)
        assert "refresh failed" not in screen_text(app)
        assert "✓ answering again since" in header(app)


async def test_a_feature_detail_whose_read_fails_says_so_instead_of_loading(
    build: Any, own_server: list[SandboxServer]
) -> None:
    server = own_server[0]
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        name = (
            (await app.client.features.search(FeatureQuery(project=PROJECT, limit=1)))
            .features[0]
            .name
        )
        server.stop()
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settled(app, pilot)
        detail = said(app, "#feature")
        assert f"Read failed: GET /api/admin/projects/{PROJECT}/features/{name}" in detail
        assert f"loading {name}…" not in screen_text(app)
        restart(own_server)
        await pilot.press("r")
        await settled(app, pilot)
        assert visible_text(app, "#feature").startswith(name)
        own_server[-1].stop()
        await pilot.press("r")
        await settled(app, pilot)
        detail = said(app, "#feature")
        assert re.search(rf"details from {HOUR}, (just now|\d+ s ago); refresh failed:", detail)
        assert name in detail.split("refresh failed", 1)[1]  # the last good record stays


def test_ages_are_rough_and_times_name_their_zone() -> None:
    from flagtui.tui.format import ago, moment, when

    assert [ago(s) for s in (0, 40, 130, 3 * 3600, 3 * 86400)] == [
        "just now",
        "40 s ago",
        "2 min ago",
        "3 h ago",
        "3 days ago",
    ]
    now = datetime.now(UTC)
    assert moment(now) == when(now).split(" ", 1)[1]  # today: no date, the zone named
    assert moment(now - timedelta(days=3)) == when(now - timedelta(days=3))


async def test_a_failed_events_read_shows_the_servers_control_characters(
    build: Any, faulty: Any
) -> None:
    """Before the fix: the detail's "Recent events" failure line was built with Rich's `Text`,
    which drops BEL and CR from the server's message without a trace."""
    server, fault = faulty
    for method, path in (("GET", "/search/events"), ("POST", "/events/search")):
        fault.fail(method, path, json_error(500, "InternalError", "db\x07 gone\rnow"))
    app = build(server.url, server.admin_token, retry_delays=())
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(app, pilot)
        name = (
            (await app.client.features.search(FeatureQuery(project=PROJECT, limit=1)))
            .features[0]
            .name
        )
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settled(app, pilot)
        app.screen.query_one("#feature").scroll_end(animate=False)
        await settled(app, pilot)
        line = said(app, "#feature-more")
        assert "Recent events: Read failed" in line
        assert "db␇ gone␍now" in line
