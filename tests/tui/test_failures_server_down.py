"""The TUI started while the server is down, on a profile with a fresh delivery archive (issue 23,
item 1: "the server being down while the archive is fresh: the archive is read, the outage said
once"): the failures view opens on the archive, from the start or from the connect screen, and
says the server is down once; the other areas still wait on the connect screen. A real archive
and a sandbox of the test's own, stopped before the app starts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.sandbox import SandboxServer
from flagtui.triage.source import LiveSource
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.connect import ConnectScreen
from flagtui.tui.screens.failures import FailuresScreen
from flagtui.tui.triage_view import now_utc
from testkit.pilot import settle

from .failures import PROJECT, archive_of, keys, moved_to
from .helpers import visible_text


@pytest.fixture
def stopped(sandbox_db: Path) -> Iterator[SandboxServer]:
    server = SandboxServer(sandbox_db).start()
    yield server
    server.stop()


async def archive_then_stop(server: SandboxServer, tmp_path: Path) -> tuple[str, list[str]]:
    """A fresh archive holding 3 of the server's failures, moved into the last hour; then the
    server stops. The archive's URL and the rows' keys, newest first."""
    async with AdminClient(server.url, server.admin_token, profile="check") as check:
        live = await LiveSource(check).window(None)
    now = now_utc()
    moved = [
        moved_to(f, now - timedelta(minutes=5 + 10 * n)) for n, f in enumerate(live.failures[:3])
    ]
    url = archive_of(tmp_path / "archive.db", server.url, live.integrations, moved, [])
    server.stop()
    return url, [f"{f.integration.id}:{f.delivery.id}" for f in moved]


def app_on(server: SandboxServer, url: str, tmp_path: Path, area: str) -> FlagtuiApp:
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": area, "project": PROJECT}}))
    profile = Profile(name="sandbox", url=server.url, archive_url=url)
    client = AdminClient(server.url, server.admin_token, profile="sandbox")
    return FlagtuiApp(client, profile, state_path=state)


def said_on_screen(app: FlagtuiApp, text: str) -> int:
    return sum(visible_text(app, sel).count(text) for sel in ("#failures-source", "FlagtuiHeader"))


async def test_started_on_the_failures_view_it_reads_the_archive(stopped, tmp_path) -> None:
    """Before, the connect screen ("Could not connect") hid the archive."""
    url, made = await archive_then_stop(stopped, tmp_path)
    app = app_on(stopped, url, tmp_path, "failures")
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(app, pilot, failures=True)
        assert isinstance(app.screen, FailuresScreen)
        assert keys(app) == made
        source = visible_text(app, "#failures-source")
        assert source.strip().startswith("archive collected until")
        assert said_on_screen(app, "the server is down") == 1
        assert "window 24h (w) · 3 failures" in visible_text(app, "#failures-status")
        await pilot.press("r")  # tries the server again: still down, said once still
        await settle(app, pilot, failures=True)
        assert isinstance(app.screen, FailuresScreen) and keys(app) == made
        assert said_on_screen(app, "the server is down") == 1
        back = SandboxServer(stopped.db_path, port=stopped.port).start()
        try:
            await pilot.press("r")  # connected: the outage is no longer said
            await settle(app, pilot, failures=True)
            assert isinstance(app.screen, FailuresScreen) and keys(app) == made
            assert said_on_screen(app, "the server is down") == 0
        finally:
            back.stop()
    await app.client.aclose()


async def test_from_the_connect_screen_5_opens_the_archive(stopped, tmp_path) -> None:
    url, made = await archive_then_stop(stopped, tmp_path)
    app = app_on(stopped, url, tmp_path, "features")
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(app, pilot, failures=True)
        assert isinstance(app.screen, ConnectScreen)
        assert "5 for the failures in the delivery archive" in visible_text(app, "#connect-status")
        await pilot.press("5")
        await settle(app, pilot, failures=True)
        assert isinstance(app.screen, FailuresScreen) and keys(app) == made
        assert said_on_screen(app, "the server is down") == 1
    await app.client.aclose()
