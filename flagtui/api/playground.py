"""`client.playground`: what the server's own playground answers for one context
(`POST /api/admin/playground`, OSS Unleash and the sandbox): each flag on or off and the variant
it gives, evaluated by the server for the environment and projects asked about."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from flagtui.api.core import Core
from flagtui.api.records import Record
from flagtui.api.wire import adapter


class PlaygroundVariant(Record):
    name: str
    enabled: bool = False
    payload: dict[str, Any] | None = None


class PlaygroundFlag(Record):
    """One flag's answer. Unleash also says why (`strategies`), read by nothing here yet."""

    name: str
    project_id: str
    is_enabled: bool
    is_enabled_in_current_environment: bool | None = None
    variant: PlaygroundVariant | None = None


class PlaygroundAnswer(Record):
    features: list[PlaygroundFlag] = Field(default_factory=list)


class Playground:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def evaluate(
        self, environment: str, context: dict[str, Any], *, projects: Sequence[str] | None = None
    ) -> list[PlaygroundFlag]:
        """Every flag of `projects` (all when None) as the server evaluates it for `context` in
        `environment`. NotFoundError where the server has no playground."""
        body = {
            "environment": environment,
            "projects": list(projects) if projects is not None else "*",
            "context": context,
        }
        path = "/api/admin/playground"
        answer = await self._core.read("POST", path, adapter(PlaygroundAnswer), json=body)
        return answer.features
