"""What a feature search asks for: declared once, in `FeatureQuery`, and how it goes on the wire.

`features.search(FeatureQuery(...))` sends it (within real Unleash's budget, see
`search_budget`); `archived.list` builds one for the archived flags.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from flagtui.api import validation
from flagtui.contract import PAGE_DEFAULT

if TYPE_CHECKING:
    from flagtui.api.models import ServerInfo

SEARCH_PATH = "/api/admin/search/features"

LIST_STATES = frozenset({"stale", "active"})


@dataclasses.dataclass(frozen=True, kw_only=True)
class FeatureQuery:
    query: str | None = None
    """Text in the name or description."""
    project: str | None = None
    types: Sequence[str] = ()
    states: Sequence[str] = ()
    """`stale`, `active`, `potentially-stale`."""
    lifecycle: Sequence[str] = ()
    """Lifecycle stages; `archived` asks for the archived flags (as `archived` does)."""
    sort_by: str = "name"
    sort_order: str = "asc"
    offset: int = 0
    limit: int = PAGE_DEFAULT
    archived: bool = False
    """The archived flags instead of the live ones, however this server's version takes it."""

    def normalized(self) -> FeatureQuery:
        """The `archived` stage moved from `lifecycle` to `archived`."""
        if "archived" not in self.lifecycle:
            return self
        stages = [s for s in self.lifecycle if s != "archived"]
        return dataclasses.replace(self, lifecycle=stages, archived=True)

    def list_can_answer(self) -> bool:
        """The project's feature list can answer it when the server's search limit is spent."""
        return (
            self.project is not None
            and not self.archived
            and not self.lifecycle
            and set(self.states) <= LIST_STATES
            and self.sort_by in ("name", "type", "createdAt")
        )

    def params(self, server: ServerInfo | None) -> dict[str, Any]:
        """The query parameters of GET /api/admin/search/features, for a normalized query."""
        params: dict[str, Any] = {
            "sortBy": self.sort_by,
            "sortOrder": self.sort_order,
            "offset": validation.non_negative("offset", self.offset),
            "limit": validation.non_negative("limit", self.limit),
        }
        if self.query:
            params["query"] = self.query
        if self.project:
            params["project"] = f"IS:{self.project}"
        lifecycle = self.lifecycle
        if self.archived:
            # Here, not at the top: it loads pydantic
            from flagtui.api.capabilities import archived_by_lifecycle  # imports the models

            if archived_by_lifecycle(server):
                lifecycle = [*lifecycle, "archived"]
            else:
                params["archived"] = "IS:true"
        for name, values in (
            ("type", self.types),
            ("state", self.states),
            ("lifecycle", lifecycle),
        ):
            if values:
                params[name] = _is_any_of(values)
        return params


def _is_any_of(values: Sequence[str]) -> str:
    return f"IS:{values[0]}" if len(values) == 1 else f"IS_ANY_OF:{','.join(values)}"
