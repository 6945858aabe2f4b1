"""A sandbox that goes away and comes back on its port, and the header that says so."""

from __future__ import annotations

from textual.pilot import Pilot

from flagtui.sandbox import SandboxServer
from flagtui.tui.app import FlagtuiApp
from testkit.pilot import settle

from .helpers import visible_text

HOUR = r"\d\d:\d\d \S+"  # format.when() of today, without the date


async def settled(app: FlagtuiApp, pilot: Pilot[int]) -> None:
    """`settle`, through the failures these tests cause on purpose."""
    await settle(app, pilot, failures=True)


def header(app: FlagtuiApp) -> str:
    return visible_text(app, "FlagtuiHeader")


def restart(servers: list[SandboxServer]) -> None:
    old = servers[-1]
    servers.append(SandboxServer(old.db_path, port=old.port).start())
