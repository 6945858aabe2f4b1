"""Shared by the Enterprise-only areas (project access, change requests): the project picker
that follows the project chosen elsewhere, and NotSupported shown in the area, not as an error."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Select, Static

from flagtui.api.errors import NotSupported
from flagtui.tui.format import project_options
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.text import PlainStatic


class ProjectAreaScreen(AreaScreen):
    """An area about one project at a time. Subclasses compose `compose_project_body()` and
    reload in `project_changed()`; `#area-status` says what is shown (or why nothing is)."""

    PROJECT_PROMPT: ClassVar[str] = "project"
    project_ids: list[str] = []

    def compose_body(self) -> ComposeResult:
        with Horizontal(classes="toolbar"):
            yield Select[str]([], prompt=self.PROJECT_PROMPT, id="project", compact=True)
        yield PlainStatic("loading…", id="area-status", classes="status-line")
        yield from self.compose_project_body()

    def compose_project_body(self) -> ComposeResult:
        yield from ()

    @property
    def project(self) -> str | None:
        value = self.query_one("#project", Select).value
        return value if isinstance(value, str) else None

    def status(self, text: str) -> None:
        self.query_one("#area-status", Static).update(text)

    async def fill_projects(self) -> None:
        """Call from a worker: list the projects and select the app's current one."""
        projects = await self.flagtui.client.list_projects()
        select = self.query_one("#project", Select)
        select.set_options(project_options(projects))
        ids = self.project_ids = [p.id for p in projects]
        if not ids:
            self.status("This server has no projects.")
            return
        current = self.flagtui.project
        select.value = current if current in ids else ids[0]

    def on_screen_resume(self) -> None:
        """Follow a project chosen in another area meanwhile."""
        current = self.flagtui.project
        if current and current != self.project and current in self.project_ids:
            self.query_one("#project", Select).value = current

    @on(Select.Changed, "#project")
    def _project_selected(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.flagtui.project = event.value
            self.project_changed()

    def project_changed(self) -> None:
        """The chosen project changed: read what the area shows of it."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """On an OSS server the area's writes cannot work: their keys are not offered."""
        if action in self.WRITE_ACTIONS and not self.flagtui.enterprise:
            return False
        return super().check_action(action, parameters)

    def io_failed(self, group: str, error: BaseException) -> None:
        if isinstance(error, NotSupported):
            self.status(str(error))
            self.not_supported()
            return
        super().io_failed(group, error)

    def not_supported(self) -> None:
        """The server lacks the area's operations (OSS): hide what cannot work."""
