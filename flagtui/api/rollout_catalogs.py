"""`client.strategy_types`, `client.segments`: what a rollout is made of on this server, each
read in one request (real Unleash's routes, the sandbox's alike; the context fields are in
`context_fields`)."""

from __future__ import annotations

from flagtui.api.core import Core
from flagtui.api.models import Segment, StrategyType
from flagtui.api.wire import SegmentsAnswer, StrategyTypesAnswer, adapter


class StrategyTypes:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self, *, deprecated: bool = False) -> list[StrategyType]:
        """The strategy types a new strategy may use (`deprecated`: the others too)."""
        path = "/api/admin/strategies"
        answer = await self._core.read("GET", path, adapter(StrategyTypesAnswer))
        return [t for t in answer.strategies if deprecated or not t.deprecated]


class Segments:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self) -> list[Segment]:
        answer = await self._core.read("GET", "/api/admin/segments", adapter(SegmentsAnswer))
        return answer.segments
