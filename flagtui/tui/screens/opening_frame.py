"""The first frame of a start with no cached rows to show: the header (the profile as the start
names it) and one line saying what the start is doing ("connecting…"). Drawn before the
config's pydantic models, httpx, the client or any area are imported; the remembered area
replaces it once the profile is open."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen

from flagtui.tui.format import CONNECTING
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.text import PlainStatic


class OpeningScreen(Screen[None]):
    def __init__(self, area: str) -> None:
        super().__init__()
        self.area = area

    def compose(self) -> ComposeResult:
        yield FlagtuiHeader(area=self.area)
        yield PlainStatic(CONNECTING, id="opening-status", classes="status-line")
        yield KeyBar()
