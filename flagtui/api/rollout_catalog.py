"""`RolloutCatalog`: what the local checks of a rollout (`rollout_rules`) need from the server,
read once (`client.rollouts.catalog()`): its strategy types, context fields and segments, and
the server itself (its version decides the constraint operators)."""

from __future__ import annotations

from dataclasses import dataclass, field

from flagtui.api.models import ContextField, Segment, ServerInfo, StrategyType


@dataclass(frozen=True)
class RolloutCatalog:
    """What a rollout may be made of on one server: its strategy types, context fields and
    segments, and the server (its version decides the constraint operators)."""

    strategy_types: list[StrategyType] = field(default_factory=list)
    context_fields: list[ContextField] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    server: ServerInfo | None = None

    def strategy_type(self, name: str) -> StrategyType | None:
        return next((t for t in self.strategy_types if t.name == name), None)

    def context_field(self, name: str) -> ContextField | None:
        return next((f for f in self.context_fields if f.name == name), None)

    def segment(self, id_or_name: float | str) -> Segment | None:
        """A segment by id, or by name (a name that is all digits is tried as a name first)."""
        if isinstance(id_or_name, str):
            named = next((s for s in self.segments if s.name == id_or_name), None)
            if named is not None or not (id_or_name.isascii() and id_or_name.isdigit()):
                return named
            id_or_name = int(id_or_name)
        return next((s for s in self.segments if s.id == id_or_name), None)
