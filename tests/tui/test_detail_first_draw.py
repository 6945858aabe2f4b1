"""Enter on a feature (issue 17): the detail draws the list row's fields at once, and when the
full record arrives that part (the head) stays as drawn (same widget, not rendered again)
unless the record says otherwise; what the row did not have is drawn into a part of its own.

The full record's read is held by `Gate`, an ASGI wrapper around a real sandbox served over
HTTP, so the row's first draw can be looked at before the answer: a slow network, which the
sandbox itself cannot be."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.sandbox import SandboxServer
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.feature_view import Part
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .helpers import screen_text, visible_text

PROJECT = "payments"
FEATURE = f"/api/admin/projects/{PROJECT}/features/"
HEAD = "#feature-head"
READING = "reading strategies, variants, tags and dependencies…"


class Gate:
    """ASGI wrapper: GETs of `path` wait until `release` is set (the sandbox then answers)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.path: str | None = None
        self.release = threading.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        held = scope["type"] == "http" and scope["method"] == "GET" and scope["path"] == self.path
        while held and not self.release.is_set():
            await asyncio.sleep(0.01)  # the server's loop, in its own thread
        await self.inner(scope, receive, send)


@pytest.fixture
def gated(sandbox_db: Path) -> Iterator[tuple[SandboxServer, Gate]]:
    server = SandboxServer(sandbox_db)
    gate = Gate(server.app)
    server.app = gate  # type: ignore[assignment]
    with server:
        yield server, gate
    gate.release.set()


@pytest.fixture
async def build(tmp_path: Path) -> AsyncIterator[Callable[[SandboxServer], FlagtuiApp]]:
    """The app on `server`, opening the features area of payments."""
    clients: list[AdminClient] = []
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"p": {"area": "features", "project": PROJECT}}))

    def make(server: SandboxServer) -> FlagtuiApp:
        client = AdminClient(server.url, server.admin_token, profile="p", retry_delays=(0.02,))
        clients.append(client)
        return FlagtuiApp(client, Profile(name="p", url=server.url), state_path=state)

    yield make
    for client in clients:
        await client.aclose()


async def open_held(app: FlagtuiApp, pilot: Any, gate: Gate) -> str:
    """Enter on the selected row with its full read held; returns once the row is drawn."""
    name = app.screen.query_one(ResourceTable).selected_key
    assert name is not None
    gate.path = FEATURE + name
    await pilot.press("enter")
    for _ in range(200):  # refreshes, not time: the row is drawn at the screen's first frame
        if isinstance(app.screen, FeatureDetailScreen) and READING in screen_text(app):
            return name
        await pilot.pause()
    raise AssertionError(f"the row was never drawn:\n{screen_text(app)}")


def drawn(app: FlagtuiApp, selectors: list[str]) -> dict[str, tuple[Part, object, str]]:
    """Each part: the widget, its rendered lines (Textual's cache of them), what it shows."""
    parts = {s: app.screen.query_one(s, Part) for s in selectors}
    return {s: (p, p._render_cache, visible_text(app, s)) for s, p in parts.items()}


async def test_the_rows_parts_stay_drawn_and_the_record_adds_the_rest(
    gated: tuple[SandboxServer, Gate], build: Any
) -> None:
    server, gate = gated
    app = build(server)
    async with app.run_test(size=(100, 80)) as pilot:
        await settle(app, pilot)
        name = await open_held(app, pilot, gate)
        before = drawn(app, [HEAD])
        assert name in before[HEAD][2] and "Stage" in before[HEAD][2]
        assert "production" in before[HEAD][2]
        assert "Collaborators" not in visible_text(app, "#feature")

        gate.release.set()
        await settle(app, pilot)

        after = drawn(app, [HEAD])
        for selector, (part, lines, text) in before.items():
            again, lines_again, text_again = after[selector]
            assert again is part, f"{selector} was replaced"
            assert lines_again is lines, f"{selector} was rendered again"
            assert text_again == text
        shown = visible_text(app, "#feature")
        record = await app.client.features.get(PROJECT, name)
        assert READING not in shown
        for section in ("Variants", "Tags", "Dependencies", "Children", "Collaborators"):
            assert section in shown
        for env in record.environments or []:
            n = len(env.strategies or [])
            strategies = f"{n} {'strategy' if n == 1 else 'strategies'}"
            assert f"{env.name} · {strategies}" in shown
            assert all(s.name in shown for s in env.strategies or [])
        assert all(f"{t.type}:{t.value}" in shown for t in record.tags or [])


async def test_a_field_the_record_changed_is_redrawn(
    gated: tuple[SandboxServer, Gate], build: Any
) -> None:
    server, gate = gated
    app = build(server)
    async with app.run_test(size=(100, 80)) as pilot:
        await settle(app, pilot)
        name = app.screen.query_one(ResourceTable).selected_key
        assert name is not None
        old = (await app.client.features.get(PROJECT, name)).description or "(no description)"
        new = f"patched behind the list's back {name}"
        ops = [{"op": "replace", "path": "/description", "value": new}]
        await app.client.features.patch(PROJECT, name, ops)  # the list's row still says `old`
        await open_held(app, pilot, gate)
        head = drawn(app, [HEAD])[HEAD]
        assert old in head[2] and "Stage" in head[2]

        gate.release.set()
        await settle(app, pilot)

        again = drawn(app, [HEAD])[HEAD]
        assert new in again[2] and "Stage" in again[2]
        assert old not in screen_text(app)
        assert again[0] is head[0]  # the same widget, drawn again
        assert (await app.client.features.get(PROJECT, name)).description == new


async def test_a_failed_full_read_keeps_the_rows_fields_and_says_so(
    sandbox_db: Path, build: Any
) -> None:
    server = SandboxServer(sandbox_db).start()
    port = server.port
    app = build(server)
    try:
        async with app.run_test(size=(100, 60)) as pilot:
            await settle(app, pilot)
            table = app.screen.query_one(ResourceTable)
            row = table.selected_record
            assert row is not None
            server.stop()
            await pilot.press("enter")
            await settle(app, pilot, failures=True)
            shown = visible_text(app, "#feature")
            assert f"Read failed: GET {FEATURE}{row.name}" in shown
            assert (row.description or "(no description)") in shown
            assert all(env.name in shown for env in row.environments or [])
            assert f"Read failed: GET {FEATURE}{row.name}" in visible_text(app, "#feature-failure")
            assert row.name in visible_text(app, HEAD)
            assert "strategies, variants, tags and dependencies: not read" in shown
            assert READING not in shown

            server = SandboxServer(sandbox_db, port=port).start()
            await pilot.press("r")
            await settle(app, pilot)
            assert visible_text(app, "#feature-failure") == ""
            assert "Collaborators" in visible_text(app, "#feature")
    finally:
        server.stop()


async def test_environments_the_record_no_longer_has_are_drawn_from_the_record(
    gated: tuple[SandboxServer, Gate], build: Any
) -> None:
    server, gate = gated
    app = build(server)
    async with app.run_test(size=(100, 80)) as pilot:
        await settle(app, pilot)
        row = app.screen.query_one(ResourceTable).selected_record
        assert row is not None and len(row.environments or []) > 1
        gone = (row.environments or [])[-1].name
        await app.client.environments.remove(PROJECT, gone)
        await open_held(app, pilot, gate)
        assert gone in visible_text(app, HEAD)

        gate.release.set()
        await settle(app, pilot)

        shown = visible_text(app, HEAD)
        marked = [line.split()[1] for line in shown.splitlines() if line.strip()[:1] in ("✓", "✗")]
        assert gone not in marked
        record = await app.client.features.get(PROJECT, row.name)
        assert gone not in [e.name for e in record.environments or []]
        assert marked == [e.name for e in record.environments or []]
