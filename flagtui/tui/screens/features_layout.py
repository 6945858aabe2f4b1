"""The features area's columns, rows and layout, and a returning start's first frame: the rows
it showed at the end of the last run, drawn before the admin client, pydantic and the area
itself are imported.

`CachedFeaturesScreen` is what a returning user's start draws first (see `start_hint.py` and
the app's `get_default_screen`): the same header, toolbars (the search box empty), status line
and table as the area, filled from the row cache and marked as cached with their age. The area
replaces it as soon as it is built, showing the same rows until the server's arrive. It has no
keys of its own: the key bar says only what works yet (the app's keys). Keys typed meanwhile
wait until the opener has run, then reach the area (`s` and a name: its search box).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.screen import Screen
from textual.widgets import Input

from flagtui.tui.areas import FEATURES
from flagtui.tui.format import age_note, env_flags, staleness, when
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.table import Column, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

if TYPE_CHECKING:
    from flagtui.api.models import Feature

COLUMNS = [
    Column("name", "Name", flex=True),
    Column("type", "Type"),
    Column("stage", "Stage"),
    Column("stale", "Stale"),
    Column("envs", "Envs"),
    Column("created", "Created"),
]


def feature_row(feature: Feature, short: dict[str, str], name: str | None = None) -> Row:
    """A flag's row: its key (the flag's name) and its cells, one per column."""
    cells = (
        name or feature.name,
        feature.type or "",
        "archived" if feature.is_archived else feature.lifecycle.stage if feature.lifecycle else "",
        staleness(feature),
        env_flags(feature.environments, short),
        when(feature.created_at, date_only=True),
    )
    return feature.name, cells


def search_box() -> Input:
    return Input(placeholder="search features (s)", id="search", compact=True)


def features_body(table: ResourceTable[Any], search: Input, status: str) -> ComposeResult:
    """Below the header: the toolbars, the status line, the table. The search box is there
    from the first frame: `s` and a name typed before the first page find it (else the name's
    digits switched areas). The Selects, filled from the server's lists and costly to build,
    are mounted once the first page shows (rows first, then controls), in places kept for them:
    the project picker's beside the search box, the filters' line below."""
    yield Horizontal(Container(id="project-slot"), search, classes="toolbar", id="toolbar-search")
    yield Horizontal(classes="toolbar", id="toolbar-filters")
    yield PlainStatic(status, id="page-status", classes="status-line")
    yield table


def cached_status(saved_at: datetime) -> str:
    return age_note("cached rows", saved_at, "refreshing…")


class CachedRowsTable(ResourceTable[object]):
    """Shows the cached rows and nothing more: its keys wait for the area (the cursor too,
    which would start again at the top)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return False


class CachedFeaturesScreen(Screen[None]):
    def __init__(self, rows: Sequence[Row], saved_at: datetime) -> None:
        super().__init__()
        self.rows = rows
        self.saved_at = saved_at

    def compose(self) -> ComposeResult:
        table = CachedRowsTable(COLUMNS, id="features")
        table.set_rows(self.rows)
        yield FlagtuiHeader(area=FEATURES)
        yield from features_body(table, search_box(), cached_status(self.saved_at))
        yield KeyBar()

    def on_mount(self) -> None:
        focus_now(self.query_one(ResourceTable))  # not the search box, the first focusable
