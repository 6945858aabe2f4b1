"""Per-environment writes beyond the contract (AdminClient inherits these methods): switching a
flag on or off in one environment, and linking an environment to a project (the inverse of
operation 3). Both are real Unleash's routes; the sandbox serves them the same way.

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

from collections.abc import Awaitable
from typing import Any, Protocol

from flagtui.api import validation
from flagtui.api.wire import seg


class _Host(Protocol):
    def _write(
        self, action: str, method: str, path: str, adapter: Any = ..., json: Any = ...
    ) -> Awaitable[Any]: ...


class EnvironmentOperations:
    async def set_feature_environment_enabled(
        self: _Host, project: str, feature: str, environment: str, enabled: bool
    ) -> None:
        """Switch `feature` on (`enabled`) or off in one environment. Returns nothing: read
        the feature again to see its state (real Unleash answers no body)."""
        env = validation.name("environment", environment)
        verb = "on" if enabled else "off"
        path = (
            f"/api/admin/projects/{seg(project)}/features/"
            f"{seg(validation.name('feature', feature))}/environments/{seg(env)}/{verb}"
        )
        await self._write("enable feature" if enabled else "disable feature", "POST", path)

    async def add_project_environment(self: _Host, project: str, environment: str) -> None:
        """Link an environment to a project: its flags get it, switched off."""
        body = {"environment": validation.name("environment", environment)}
        path = f"/api/admin/projects/{seg(project)}/environments"
        await self._write("link environment", "POST", path, json=body)
