"""`client.strategy_types`: what a rollout is made of on this server, read in one request (real
Unleash's route, the sandbox's alike); the context fields are in `context_fields`, the segments
(re-exported here) in `segments`."""

from __future__ import annotations

from flagtui.api.core import Core
from flagtui.api.models import StrategyType
from flagtui.api.segments import Segments
from flagtui.api.wire import StrategyTypesAnswer, adapter

__all__ = ["Segments", "StrategyTypes"]


class StrategyTypes:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self, *, deprecated: bool = False) -> list[StrategyType]:
        """The strategy types a new strategy may use (`deprecated`: the others too)."""
        path = "/api/admin/strategies"
        answer = await self._core.read("GET", path, adapter(StrategyTypesAnswer))
        return [t for t in answer.strategies if deprecated or not t.deprecated]
