"""The areas, one Textual mode each, and the connect screen's mode: each area's screen built
when its mode is first shown, and built afresh after a connection failure or a profile switch;
the failure source the on-call views share."""

from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING

from textual.screen import Screen
from textual.widget import AwaitMount

from flagtui.profile import Profile
from flagtui.triage.source import FailureSource
from flagtui.tui.areas import AREAS, AREAS_BY_NAME, DEFAULT_AREA, Area
from flagtui.tui.failure_sources import SharedFailureSource
from flagtui.tui.plain_toasts import PlainToastsApp
from flagtui.tui.screens.connect import ConnectScreen
from flagtui.tui.state import UiState

if TYPE_CHECKING:
    from flagtui.api import AdminClient

CONNECT_MODE = "connect"


def connect_screen() -> Screen[None]:
    return ConnectScreen()


class AreaModes(PlainToastsApp):
    client: AdminClient
    profile: Profile
    ui_state: UiState
    """The profile's remembered state: its area and project among them."""

    def __init__(self) -> None:
        super().__init__()
        self.area: str | None = None
        self._failures = SharedFailureSource()
        for area in AREAS:
            self.add_mode(area.name, partial(self._area_screen, area))
        self.add_mode(CONNECT_MODE, connect_screen)

    @property
    def project(self) -> str | None:
        """The project shared by the project-scoped areas, remembered per profile."""
        return self.ui_state.get("project")

    @project.setter
    def project(self, value: str) -> None:
        self.ui_state.set("project", value)

    def switch_area(self, name: str) -> AwaitMount:
        name = name if name in AREAS_BY_NAME else DEFAULT_AREA
        self.area = name
        self.ui_state.set("area", name)
        return self.switch_mode(name)

    def action_switch_area(self, name: str) -> None:
        self.switch_area(name)

    def _fresh_areas(self) -> None:
        """Every area is built again when next shown (none may be the current mode)."""
        for area in AREAS:
            self.remove_mode(area.name)
            self.add_mode(area.name, partial(self._area_screen, area))

    def _area_screen(self, area: Area) -> Screen[None]:
        """An area's screen, marked as styled by the stylesheet as it is now: else Textual parses
        every stylesheet again, twice, when its mode is first shown (about 30 ms of a start)."""
        screen = area.make_screen()
        screen._css_update_count = self._css_update_count
        return screen

    def failure_source(self) -> FailureSource:
        """Where the failures view and the integrations' sparklines read (`failure_sources`)."""
        return self._failures.get(self.client, self.profile, self.ui_state)

    def _redraw_failures(self) -> None:
        # Not imported to find none: its import cost a first start 0.1-0.25 s before the rows.
        failures = sys.modules.get("flagtui.tui.screens.failures")
        if failures is None:  # no failures view was ever built
            return
        for screen in self.screen_stack:
            if isinstance(screen, failures.FailuresScreen):
                screen.show()
