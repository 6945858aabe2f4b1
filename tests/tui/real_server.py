"""The server of the real-server flows: the sandbox, and real Unleash when UNLEASH_URL and
UNLEASH_API_TOKEN are set (the `server` fixture, in conftest.py); what the flows read from it."""

from __future__ import annotations

import asyncio
import json
import os
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from skip_reasons import NO_REAL_UNLEASH

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen

from .areas import settle

REAL_URL, REAL_TOKEN = os.environ.get("UNLEASH_URL"), os.environ.get("UNLEASH_API_TOKEN")
NO_REAL = pytest.mark.skipif(not (REAL_URL and REAL_TOKEN), reason=NO_REAL_UNLEASH)

REAL = [pytest.mark.unleash, NO_REAL]


@dataclass
class Server:
    """One server under test: how to reach it, a checking client, and per-server targets."""

    kind: str
    url: str
    token: str = field(repr=False)  # a failure report prints the fixture: never the token
    check: AdminClient
    project: str
    user_query: str
    tmp_path: Path
    admin: httpx.AsyncClient | None = None
    apps: list[AdminClient] = field(default_factory=list)
    _created: list[str] = field(default_factory=list)

    @property
    def real(self) -> bool:
        return self.kind == "unleash"

    def app(self, area: str, *, url: str | None = None) -> FlagtuiApp:
        """The app started straight in `area` (never in features: it searches on start);
        `url`: reach the server there instead (a gateway in front of it), with its token."""
        state = self.tmp_path / f"state-{area}.json"
        state.write_text(json.dumps({self.kind: {"area": area, "project": self.project}}))
        client = AdminClient(url or self.url, self.token, profile=self.kind)
        self.apps.append(client)
        return FlagtuiApp(client, Profile(name=self.kind, url=url or self.url), state_path=state)

    async def new_feature(self) -> str:
        """Real only: a fresh release flag in the default project (removed afterwards)."""
        assert self.admin is not None
        name = f"tui-flow-{uuid.uuid4().hex[:10]}"
        created = await self.admin.post(
            f"/api/admin/projects/{self.project}/features", json={"name": name, "type": "release"}
        )
        assert created.status_code in (200, 201), created.text
        self._created.append(name)
        return name


async def poll(
    read: Callable[[], Awaitable[Any]], ok: Callable[[Any], bool], seconds: float
) -> Any:
    """Real Unleash records some things asynchronously: read until `ok`, at most `seconds`."""
    deadline = time.monotonic() + seconds
    value = await read()
    while not ok(value) and time.monotonic() < deadline:
        await asyncio.sleep(0.25)
        value = await read()
    return value


async def a_feature(server: Server) -> str:
    if server.real:
        return await server.new_feature()
    return (
        (await server.check.features.search(FeatureQuery(project=server.project, limit=1)))
        .features[0]
        .name
    )


async def open_detail(app: FlagtuiApp, pilot: Any, project: str, name: str) -> None:
    await settle(pilot)
    app.push_screen(FeatureDetailScreen(project, name))
    await settle(pilot)
    assert isinstance(app.screen, FeatureDetailScreen)


async def a_feature_with_events(server: Server) -> str:
    if not server.real:
        events = (await server.check.events.search(project=server.project, limit=50)).events
        return next(e.feature_name for e in events if e.feature_name)
    assert server.admin is not None
    name = await server.new_feature()
    for n in range(2):
        await server.admin.patch(
            f"/api/admin/projects/{server.project}/features/{name}",
            json=[{"op": "replace", "path": "/description", "value": f"event {n}"}],
        )
    return name
