"""The header notices that the server is back with nobody using the app (issue 23): while the
server is marked down, the header of the screen on top asks it (`/health`) whether it answers,
one request at a time, and not while a modal is open. The server goes away for real (a sandbox
of the test's own, stopped and started again on the same port); the tests wait for what the
header says, with no time bound (the suite's timeout ends a header that never changes)."""

from __future__ import annotations

import re
from typing import Any

from textual.pilot import Pilot

from flagtui.api.health import PROBE_EVERY_S
from flagtui.sandbox import SandboxServer
from flagtui.tui.app import FlagtuiApp

from .restarts import HOUR, header, restart, settled


async def until_header_says(app: FlagtuiApp, pilot: Pilot[int], pattern: str) -> None:
    while not re.search(pattern, header(app)):
        await pilot.pause(0.1)


async def down(app: FlagtuiApp, pilot: Pilot[int], server: SandboxServer) -> None:
    """The server stopped; a read (`r`) finds it out."""
    server.stop()
    await pilot.press("r")
    await settled(app, pilot)
    assert re.search(rf"⚠ not answering since {HOUR} \(Unreachable\)", header(app))


async def test_an_idle_header_notices_the_server_is_back(
    build: Any, own_server: list[SandboxServer]
) -> None:
    server = own_server[0]
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await down(app, pilot, server)
        restart(own_server)  # and no key pressed from here on
        await until_header_says(app, pilot, rf"✓ answering again since {HOUR}")


async def test_no_probe_while_a_modal_is_open(build: Any, own_server: list[SandboxServer]) -> None:
    server = own_server[0]
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await down(app, pilot, server)
        await pilot.press("question_mark")  # the help, a modal over the area
        sent = app.client.requests_sent
        restart(own_server)
        await pilot.pause(2 * PROBE_EVERY_S)  # two probes' worth: none is sent
        assert app.client.requests_sent == sent
        await pilot.press("escape")
        await until_header_says(app, pilot, rf"✓ answering again since {HOUR}")
        assert app.client.requests_sent > sent
