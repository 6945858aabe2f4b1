"""`client.environments`: a project's environments; linking one (real Unleash's route, the
inverse of operation 3) and removing one (operation 3). Switching a flag on or off in one
environment is `client.features.set_environment_enabled`. Both writes beyond the contract are
real Unleash's routes; the sandbox serves them the same way.

What real Unleash (OSS 8.2.0, and its source) does:
- POST /api/admin/projects/:p/features/:f/environments/:env/on|off answers 200 with no body
  (its OpenAPI document says a feature; the server sends nothing). It checks, in order: the flag
  is in the project (404 NotFoundError), the flag has the environment, i.e. the environment is
  linked to the project (404 "Could not find environment ENV for feature: F"), the flag is not
  archived (400 ArchivedFeatureError). Switching on an environment without an active strategy
  first adds the default strategy (flexibleRollout 100%, event `feature-strategy-add`). The
  event `feature-environment-enabled`/`-disabled` is recorded only when the state changed.
- POST /api/admin/projects/:p/environments `{"environment": ENV}` answers 200 with no body and
  records `project-environment-added`; every flag of the project gets the environment, switched
  off with no strategies (what it had before a removal is not restored). An environment already
  linked is 409 NameExistsError, an unknown one 400 BadDataError, an unknown project 404.
"""

from __future__ import annotations

from flagtui.api import validation
from flagtui.api.core import Core
from flagtui.api.models import ProjectEnvironment
from flagtui.api.wire import ProjectEnvironments, adapter, seg


class Environments:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self, project: str) -> list[ProjectEnvironment]:
        path = f"/api/admin/environments/project/{seg(project)}"
        answer = await self._core.read("GET", path, adapter(ProjectEnvironments))
        return answer.environments

    async def link(self, project: str, environment: str) -> None:
        """Link an environment to a project: its flags get it, switched off."""
        body = {"environment": validation.name("environment", environment)}
        path = f"/api/admin/projects/{seg(project)}/environments"
        await self._core.write("link environment", "POST", path, json=body)

    async def remove(self, project: str, environment: str) -> None:
        """Operation 3."""
        path = f"/api/admin/projects/{seg(project)}/environments/{seg(environment)}"
        await self._core.write("remove environment", "DELETE", path)
