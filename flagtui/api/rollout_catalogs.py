"""`client.strategy_types`, `client.context_fields`, `client.segments` (its writes too, in
`segments`): what a rollout is made of on this server, each read in one request (real
Unleash's routes, the sandbox's alike)."""

from __future__ import annotations

from flagtui.api.core import Core
from flagtui.api.models import ContextField, StrategyType
from flagtui.api.segments import Segments
from flagtui.api.wire import ContextFieldList, StrategyTypesAnswer, adapter

__all__ = ["ContextFields", "Segments", "StrategyTypes"]


class StrategyTypes:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self, *, deprecated: bool = False) -> list[StrategyType]:
        """The strategy types a new strategy may use (`deprecated`: the others too)."""
        path = "/api/admin/strategies"
        answer = await self._core.read("GET", path, adapter(StrategyTypesAnswer))
        return [t for t in answer.strategies if deprecated or not t.deprecated]


class ContextFields:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self) -> list[ContextField]:
        """Every context field, in the server's order (`sortOrder`)."""
        fields = await self._core.read("GET", "/api/admin/context", adapter(ContextFieldList))
        return sorted(fields, key=lambda f: (f.sort_order is None, f.sort_order or 0))
