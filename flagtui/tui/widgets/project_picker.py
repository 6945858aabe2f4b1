"""The project picker of every project-scoped area (features, environments, project access,
change requests): the server's projects in a Select that starts at, and remembers, the project
chosen last in any of them (`FlagtuiContext.project`, per profile)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from textual import on

from flagtui.api.models import Project
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.format import project_options
from flagtui.tui.widgets.select import Select


class ProjectPicker(Select[str]):
    """`#project`; its `Select.Changed` bubbles to the screen, which reads the new project."""

    def __init__(
        self, projects: Sequence[Project] = (), *, value: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(
            project_options(list(projects)),
            prompt="project",
            id="project",
            compact=True,
            value=Select.NULL if value is None else value,
            **kwargs,
        )
        self.project_ids = [p.id for p in projects]

    @property
    def project(self) -> str | None:
        return self.value if isinstance(self.value, str) else None

    def show_projects(self, projects: Sequence[Project], remembered: str | None) -> str | None:
        """Offer the server's projects and choose the remembered one (else the first); None
        when the server has none."""
        self.set_options(project_options(list(projects)))
        self.project_ids = [p.id for p in projects]
        if not self.project_ids:
            return None
        self.value = remembered if remembered in self.project_ids else self.project_ids[0]
        return self.project

    def follow(self, remembered: str | None) -> None:
        """Choose the project chosen in another area meanwhile (when the screen is shown again)."""
        if remembered and remembered != self.project and remembered in self.project_ids:
            self.value = remembered

    @on(Select.Changed)
    def _remember(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            cast("FlagtuiContext", self.app).project = event.value
