"""Start-up: the last rows shown come from the row cache before the server answers, marked as
cached with their age, and fresh rows replace them; the remembered project's search goes out
with ui-config. A slow network is what the sandbox cannot produce: `Held` forwards every
request to the real sandbox but keeps chosen ones waiting until the test lets them go
(`held_transport`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from held_transport import Held

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.row_cache import RowCache
from testkit.pilot import settle

from .helpers import screen_text, visible_text
from .row_cache_state import CACHED, SEARCH, app_on, cache_of, first_project


async def first_paint(app: FlagtuiApp, pilot: Any) -> None:
    """Let the app draw what it has while the held answers wait (no worker can finish)."""
    for _ in range(6):
        await pilot.pause()


async def test_cached_rows_show_before_the_answer_then_fresh_rows_replace_them(
    sandbox, tmp_path
) -> None:
    project = await first_project(sandbox)
    cache_of(sandbox, tmp_path).save("features", project, CACHED)
    held = Held(lambda path: path == SEARCH)
    app = app_on(sandbox, tmp_path, project, held)
    async with app.run_test(size=(100, 24)) as pilot:
        await first_paint(app, pilot)
        assert "cached-only-flag" in visible_text(app, "#features")
        status = visible_text(app, "#page-status")
        assert "cached rows from" in status and ("ago" in status or "just now" in status)
        assert "refreshing" in status
        held.release()
        await settle(app, pilot)
        assert "cached-only-flag" not in screen_text(app)
        assert "cached" not in visible_text(app, "#page-status")
        assert "page 1/" in visible_text(app, "#page-status")
        fresh = app.screen.query_one("#features").selected_key  # type: ignore[attr-defined]
    # What the fresh page showed is what the next start finds.
    again = cache_of(sandbox, tmp_path).load("features", 6, project)
    assert again is not None and again.scope == project
    assert again.rows[0][0] == fresh and "cached-only-flag" not in {k for k, _ in again.rows}


async def test_cached_rows_are_server_text_shown_as_written(sandbox, tmp_path) -> None:
    project = await first_project(sandbox)
    hostile = ("x", ["[bold]x[/bold]\x1b[31m", "release", "", "", "", ""])
    cache_of(sandbox, tmp_path).save("features", project, [hostile])
    held = Held(lambda path: path == SEARCH)
    app = app_on(sandbox, tmp_path, project, held)
    async with app.run_test(size=(100, 24)) as pilot:
        await first_paint(app, pilot)
        assert "[bold]x[/bold]␛[31m" in visible_text(app, "#features")
        held.release()
        await settle(app, pilot)


async def test_another_profile_never_sees_the_cached_rows(sandbox, tmp_path) -> None:
    project = await first_project(sandbox)
    cache_of(sandbox, tmp_path, "other").save("features", project, CACHED)
    held = Held(lambda path: path == SEARCH)
    app = app_on(sandbox, tmp_path, project, held, name="sandbox")
    async with app.run_test(size=(100, 24)) as pilot:
        await first_paint(app, pilot)
        assert "cached-only-flag" not in screen_text(app)
        assert "cached" not in visible_text(app, "#page-status")
        held.release()
        await settle(app, pilot)
        assert "page 1/" in visible_text(app, "#page-status")


def test_another_server_area_or_project_never_finds_the_cached_rows(tmp_path) -> None:
    RowCache(tmp_path, "prod", "https://a.example").save("features", "default", CACHED)
    same = RowCache(tmp_path, "prod", "https://a.example/")
    assert same.load("features", 6, "default") is not None
    assert RowCache(tmp_path, "prod", "https://b.example").load("features", 6, "default") is None
    assert RowCache(tmp_path, "prod2", "https://a.example").load("features", 6, "default") is None
    assert RowCache(tmp_path, "prod", "https://a.example").load("events", 6, "default") is None
    assert same.load("features", 6, "another-project") is None
    written = "".join(p.read_text() for p in tmp_path.iterdir())
    assert "a.example" not in written and "prod" not in written


async def test_a_corrupt_cache_is_ignored_silently(sandbox, tmp_path) -> None:
    project = await first_project(sandbox)
    cache = cache_of(sandbox, tmp_path)
    cache.path.parent.mkdir(parents=True)
    for broken in ('{"version": 1, "key": ', json.dumps({"version": 99, "key": cache.key})):
        cache.path.write_text(broken)
        app = app_on(sandbox, tmp_path, project, Held(lambda path: False))
        async with app.run_test(size=(100, 24), notifications=True) as pilot:
            await settle(app, pilot)
            status = visible_text(app, "#page-status")
            assert "page 1/" in status and "cached" not in status and "failed" not in status
            assert "Error" not in screen_text(app)
        assert cache.load("features", 6, project) is not None  # written again, readable


async def until_drawn(pilot: Any, shown: Callable[[], bool], limit_s: float = 10.0) -> None:
    """Wait for the app to draw something while held answers wait (the app is never idle
    meanwhile, so `settle` cannot be used), never longer than `limit_s`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while not shown():
        assert loop.time() < deadline, "never drawn"
        await pilot.pause(0.02)


async def test_the_remembered_projects_first_page_is_drawn_before_anything_else_answers(
    sandbox, tmp_path
) -> None:
    """One round trip to fresh rows: the search does not wait for ui-config, the project list
    or the feature types; with all three held, the fresh first page and its "page 1/…" status
    are drawn all the same."""
    project = await first_project(sandbox)
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        first = (
            (await client.features.search(FeatureQuery(project=project, limit=1))).features[0].name
        )
    others = ["/api/admin/ui-config", "/api/admin/projects", "/api/admin/feature-types"]
    held = Held(lambda path: path != SEARCH)
    app = app_on(sandbox, tmp_path, project, held)
    async with app.run_test(size=(100, 24)) as pilot:
        await until_drawn(pilot, lambda: "page 1/" in visible_text(app, "#page-status"))
        assert first in visible_text(app, "#features")
        assert "connecting…" in screen_text(app)  # ui-config still unanswered
        assert all(path in held.sent and path not in held.answered for path in others)
        held.release()
        await settle(app, pilot)
        assert "page 1/" in visible_text(app, "#page-status")
        assert first in visible_text(app, "#features")
        assert held.sent.count(SEARCH) == 1  # asked once, not again after the project list
