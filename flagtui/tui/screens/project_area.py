"""The base of the areas about one project at a time (environments, project access, change
requests): the project picker that follows the project chosen elsewhere, and a status line.
An area the registry marks `enterprise_only` (areas.py) also says NotSupported in the area (not
as an error) and offers no write keys on an OSS server."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from flagtui.api.errors import NotSupported
from flagtui.tui.areas import AREAS_BY_NAME
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.project_picker import ProjectPicker
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import PlainStatic


class ProjectAreaScreen(AreaScreen):
    """Subclasses compose `compose_project_body()`, read the projects in a worker that calls
    `fill_projects()`, and read what they show of the project in `project_changed()`; the
    status line (`STATUS_ID`) says what is shown, or why nothing is."""

    STATUS_ID: ClassVar[str] = "area-status"
    picker = getters.query_one(ProjectPicker)

    def compose_body(self) -> ComposeResult:
        with Horizontal(classes="toolbar"):
            yield ProjectPicker()
        yield PlainStatic("loading…", id=self.STATUS_ID, classes="status-line")
        yield from self.compose_project_body()

    def compose_project_body(self) -> ComposeResult:
        yield from ()

    @property
    def project(self) -> str | None:
        return self.picker.project

    def status(self, text: str) -> None:
        self.query_one(f"#{self.STATUS_ID}", Static).update(text)

    async def fill_projects(self) -> None:
        """Call from a worker: list the projects and select the app's current one."""
        projects = await self.flagtui.client.projects.list()
        if self.picker.show_projects(projects, self.flagtui.project) is None:
            self.status("This server has no projects.")

    def on_screen_resume(self) -> None:
        """Follow a project chosen in another area meanwhile (Textual also runs the base's)."""
        self.picker.follow(self.flagtui.project)

    @on(Select.Changed, "#project")
    def _project_selected(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.project_changed()

    def project_changed(self) -> None:
        """The chosen project changed: read what the area shows of it."""

    # -- the Enterprise-only areas -----------------------------------------------------------

    @property
    def enterprise_only(self) -> bool:
        return AREAS_BY_NAME[self.AREA].enterprise_only

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """On an OSS server an Enterprise area's writes cannot work: their keys are not offered."""
        if action in self.WRITE_ACTIONS and self.enterprise_only and not self.flagtui.enterprise:
            return False
        return super().check_action(action, parameters)

    def io_failed(self, group: str, error: BaseException) -> None:
        if isinstance(error, NotSupported) and self.enterprise_only:
            self.status(str(error))
            self.not_supported()
            return
        super().io_failed(group, error)

    def not_supported(self) -> None:
        """The server lacks the area's operations (OSS): hide what cannot work."""
