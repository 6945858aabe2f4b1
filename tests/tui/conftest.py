"""TUI fixtures: the app on a fresh sandbox, and a separate client to check the server with."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.format import Clock, Ink
from flagtui.tui.triage_view import TimeWindow

MakeApp = Callable[..., FlagtuiApp]

# Times are shown in local time with the zone named: UTC for every test (stable snapshots),
# unless a test sets another zone with `in_zone`.
os.environ["TZ"] = "UTC"
time.tzset()


@pytest.fixture(autouse=True)
def utc_clock() -> Iterator[None]:
    """Each test starts in local time (UTC, above), whatever the one before toggled, and with
    the triage screens' time window not chosen (each source's default)."""
    Clock.utc = False
    TimeWindow.chosen = None
    yield
    Clock.utc = False
    Ink.plain = False  # set by each app (NO_COLOR, an ansi theme)
    TimeWindow.chosen = None
    if os.environ.get("TZ") != "UTC":
        os.environ["TZ"] = "UTC"
        time.tzset()


@pytest.fixture
def in_zone() -> Callable[[str], None]:
    """`in_zone("Europe/Berlin")`: local time is that zone for the rest of the test."""

    def switch(zone: str) -> None:
        os.environ["TZ"] = zone
        time.tzset()

    return switch


@pytest.fixture
async def client(sandbox: Any) -> AsyncIterator[AdminClient]:
    """An admin client of its own, to check what the server holds after the UI acted."""
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="check") as checker:
        await checker.connect()
        yield checker


@pytest.fixture
async def make_app(sandbox: Any, tmp_path: Path) -> AsyncIterator[MakeApp]:
    """`make_app(read_only=, production=, viewer=, state_path=, name=, shown_url=)`."""
    clients: list[AdminClient] = []

    def build(
        *,
        read_only: bool = False,
        production: bool = False,
        viewer: bool = False,
        state_path: Path | None = None,
        name: str = "sandbox",
        shown_url: str | None = None,
    ) -> FlagtuiApp:
        # shown_url: what the header shows (snapshots need a stable one; the port is random).
        url = shown_url or sandbox.url
        profile = Profile(name=name, url=url, read_only=read_only, production=production)
        token = sandbox.viewer_token if viewer else sandbox.admin_token
        app_client = AdminClient(sandbox.url, token, profile=name, read_only=read_only)
        clients.append(app_client)
        return FlagtuiApp(app_client, profile, state_path=state_path or tmp_path / "state.json")

    yield build
    for app_client in clients:
        # snap_compare runs the app in a loop of its own, already closed here.
        with contextlib.suppress(RuntimeError):
            await app_client.aclose()
