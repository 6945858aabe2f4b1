"""TUI fixtures: the app on a fresh sandbox, and a separate client to check the server with."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from real_webhook import create_failing_webhook

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.sandbox import SandboxServer
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.format import Clock, Ink
from flagtui.tui.triage_view import TimeWindow

from .faults import (
    PROJECT,
    FaultApp,
)
from .real_server import REAL, REAL_TOKEN, REAL_URL, Server

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


@pytest.fixture
def faulty(sandbox_db: Path) -> Iterator[tuple[SandboxServer, FaultApp]]:
    server = SandboxServer(sandbox_db)
    fault = FaultApp(server.app)
    server.app = fault  # type: ignore[assignment]
    with server:
        yield server, fault


@pytest.fixture
async def build(tmp_path: Path) -> AsyncIterator[Callable[..., FlagtuiApp]]:
    """`build(url, token, **client_kwargs)`: the app, opening the features area of payments."""
    clients: list[AdminClient] = []
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"p": {"area": "features", "project": PROJECT}}))

    def make(url: str, token: str, **kwargs: Any) -> FlagtuiApp:
        kwargs.setdefault("retry_delays", (0.02, 0.05))
        client = AdminClient(url, token, profile="p", **kwargs)
        clients.append(client)
        return FlagtuiApp(client, Profile(name="p", url=url), state_path=state)

    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
def own_server(sandbox_db: Path) -> Iterator[list[SandboxServer]]:
    """A sandbox the test stops and starts again (on the same port): `servers[-1]` is current."""
    servers = [SandboxServer(sandbox_db).start()]
    yield servers
    servers[-1].stop()


@pytest.fixture(params=["sandbox", pytest.param("unleash", marks=REAL)])
async def server(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Server]:
    if request.param == "sandbox":
        sandbox = request.getfixturevalue("sandbox")
        url, token, admin = sandbox.url, sandbox.admin_token, None
        project, user_query = "payments", "ma"
    else:
        assert REAL_URL and REAL_TOKEN
        url, token, project, user_query = REAL_URL.rstrip("/"), REAL_TOKEN, "default", "ad"
        admin = httpx.AsyncClient(base_url=url, headers={"Authorization": token}, timeout=30)
    async with AdminClient(url, token, profile="check") as check:
        await check.connect()
        srv = Server(request.param, url, token, check, project, user_query, tmp_path, admin)
        try:
            yield srv
        finally:
            for client in srv.apps:
                await client.aclose()
            if admin is not None:
                for name in srv._created:
                    await admin.delete(f"/api/admin/projects/{project}/features/{name}")
                await admin.aclose()


@pytest.fixture(scope="module")
def webhook_id() -> int:
    """Real only: a webhook to a closed loopback port, with at least one failed delivery.
    Real Unleash caches its integrations for a minute, so a new one may miss changes for that
    long: an earlier run's (or the conformance suite's) failing webhook is reused when there is
    one, else changes repeat until a delivery is recorded."""
    assert REAL_URL and REAL_TOKEN
    with httpx.Client(base_url=REAL_URL, headers={"Authorization": REAL_TOKEN}, timeout=30) as http:
        for known in http.get("/api/admin/addons").json()["addons"]:
            if known["provider"] != "webhook" or not known["enabled"]:
                continue
            if not str(known.get("description") or "").startswith("flagtui"):
                continue
            deliveries = http.get(f"/api/admin/addons/{known['id']}/events").json()
            if any(d["state"] == "failed" for d in deliveries["integrationEvents"]):
                return int(known["id"])
        return create_failing_webhook(http, "TUI flows", "tui-flows-hook")
