"""Small helpers for Pilot tests."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from flagtui.tui.app import FlagtuiApp


async def settle(app: FlagtuiApp, pilot: Pilot[int], rounds: int = 4) -> None:
    """Let workers finish and the screen catch up (workers may start further workers)."""
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()


def text_of(app: FlagtuiApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())
