"""Driving the command palette from a Pilot: type, list what it offers, run an action."""

from __future__ import annotations

from typing import Any

from textual.command import CommandPalette

from testkit.pilot import settle

from .helpers import screen_text


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*("space" if c == " " else c for c in text))


async def palette_for(app: Any, pilot: Any, query: str) -> str:
    """Open the palette, type the query and return what the screen shows."""
    await pilot.press("ctrl+p")
    await settle(app, pilot)
    assert isinstance(app.screen, CommandPalette)
    await type_text(pilot, query)
    await settle(app, pilot)
    return screen_text(app)


async def run_from_palette(app: Any, pilot: Any, query: str, title: str) -> None:
    """Type the query in the palette and run the hit titled `title` (the first is highlighted)."""
    shown = await palette_for(app, pilot, query)
    assert title in shown
    first = shown.split("\n")
    hits = [line for line in first if "…" in line or title in line]
    assert hits and title in hits[0], shown
    await pilot.press("enter")
    await settle(app, pilot)
