"""What the features area shows of a flag, and the page a start shows: Textual-free, so a cold
start's early read (`early_read.py`) makes the same rows as the area without the UI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flagtui.api.models import Feature

PAGE_SIZE = 50
Row = tuple[str, tuple[Any, ...]]
"""A row's key (the flag's name) and its cells: text, or rich Text where a cell has a style."""


def feature_row(feature: Feature, short: dict[str, str], name: str | None = None) -> Row:
    # Here, not at the top: the early read takes PAGE_SIZE and start_filters before it sends
    # its search, and formatting (rich) while the search travels.
    from flagtui.tui.format import env_flags, staleness, when

    cells = (
        name or feature.name,
        feature.type or "",
        "archived" if feature.is_archived else feature.lifecycle.stage if feature.lifecycle else "",
        staleness(feature),
        env_flags(feature.environments, short),
        when(feature.created_at, date_only=True),
    )
    return feature.name, cells


def start_filters(project: str) -> dict[str, Any]:
    """What the filter widgets say until someone changes them: the page a start shows."""
    return {
        "query": None,
        "project": project,
        "types": [],
        "states": [],
        "lifecycle": [],
        "sort_by": "name",
        "sort_order": "asc",
    }
