"""`client.projects`: the projects this token sees."""

from __future__ import annotations

from flagtui.api.core import Core
from flagtui.api.models import Project
from flagtui.api.wire import ProjectsAnswer, adapter


class Projects:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self) -> list[Project]:
        answer = await self._core.read("GET", "/api/admin/projects", adapter(ProjectsAnswer))
        return answer.projects
