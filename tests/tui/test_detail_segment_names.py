"""A feature's detail does not wait for the segments' names it already knows: the second
detail of a flag with segments is drawn while the segments are still being read (on a big
server that read counts every strategy), and a segment renamed meanwhile is redrawn by its new
name once the read answers. The segments' answer is held by a FaultApp rule until released."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from starlette.responses import JSONResponse
from textual.css.query import NoMatches

from flagtui.tui.screens.feature_detail import FeatureDetailScreen

from .faults import settle
from .helpers import visible_text


def flag_with_a_segment(db: Path) -> tuple[str, str, int, str]:
    with sqlite3.connect(db) as conn:
        flag, project, ids = conn.execute(
            "SELECT s.feature, f.project, s.segments FROM strategies s"
            " JOIN features f ON f.name = s.feature"
            " WHERE s.segments != '[]' AND f.archived_at IS NULL ORDER BY s.feature LIMIT 1"
        ).fetchone()
        segment = json.loads(ids)[0]
        (name,) = conn.execute("SELECT name FROM segments WHERE id = ?", (segment,)).fetchone()
    return flag, project, segment, name


class HeldSegments:
    """An ASGI answer to GET /api/admin/segments that waits until `release` is set."""

    def __init__(self, segment: int, name: str) -> None:
        self.release = threading.Event()
        self.body = {"segments": [{"id": segment, "name": name, "constraints": []}]}

    def __call__(self) -> Any:
        async def answer(scope: Any, receive: Any, send: Any) -> None:
            await asyncio.to_thread(self.release.wait, 60)
            await JSONResponse(self.body)(scope, receive, send)

        return answer


async def wait_for_text(app: Any, pilot: Any, text: str) -> str:
    """The detail's text once it shows `text` (waits for the event, as long as the app
    needs; the assertion after it fails if it never came)."""
    shown = ""
    for _ in range(2_000):
        with contextlib.suppress(NoMatches):  # the screen is not composed yet
            shown = " ".join(visible_text(app, "#feature").split())
        if text in shown:
            break
        await pilot.pause(0.01)
    return shown


async def test_known_segment_names_are_drawn_at_once_and_renames_follow(
    build: Any, faulty: Any, sandbox_db: Path
) -> None:
    server, fault = faulty
    flag, project, segment, name = flag_with_a_segment(sandbox_db)
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(160, 120)) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(project, flag))
        await settle(app, pilot)
        assert f"in segment {name}" in " ".join(visible_text(app, "#feature").split())
        await pilot.press("escape")
        await settle(app, pilot)

        held = HeldSegments(segment, "renamed-meanwhile")
        fault.fail("GET", "/api/admin/segments", held)
        app.push_screen(FeatureDetailScreen(project, flag))
        shown = await wait_for_text(app, pilot, f"in segment {name}")
        assert f"in segment {name}" in shown  # drawn with the names known, the read pending
        assert not held.release.is_set()
        held.release.set()
        shown = await wait_for_text(app, pilot, "in segment renamed-meanwhile")
        assert "in segment renamed-meanwhile" in shown
        await settle(app, pilot)
