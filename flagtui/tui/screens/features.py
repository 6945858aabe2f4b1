"""Features: one page (50) of a project's flags at a time, searched, filtered and sorted by the
server. Enter opens the feature's detail."""

from __future__ import annotations

from math import ceil
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import DataTable, Input, Select, Static

from flagtui.api.models import Feature
from flagtui.tui.format import env_flags, short_names, staleness, when
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.table import ResourceTable, Row

PAGE_SIZE = 50
DEBOUNCE_S = 0.4
STATES = [("any state", ""), ("stale", "stale"), ("potentially stale", "potentially-stale")]
STAGES = ["initial", "pre-live", "live", "completed", "archived"]
SORTS = [
    ("name ↑", "name:asc"),
    ("name ↓", "name:desc"),
    ("newest", "createdAt:desc"),
    ("oldest", "createdAt:asc"),
    ("type", "type:asc"),
]
COLUMNS = [
    ("name", "Name"),
    ("type", "Type"),
    ("stage", "Stage"),
    ("stale", "Stale"),
    ("envs", "Envs"),
    ("created", "Created"),
]


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def feature_row(feature: Feature, short: dict[str, str], name_width: int) -> Row:
    cells = (
        clip(feature.name, name_width),
        feature.type or "",
        feature.lifecycle.stage if feature.lifecycle else "",
        staleness(feature),
        env_flags(feature.environments, short),
        when(feature.created_at, date_only=True),
    )
    return feature.name, cells


class FeaturesScreen(AreaScreen):
    AREA = "features"
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="features.open", tooltip="Show the feature's detail"),
        Binding("n", "page(1)", "Page", key_display="n/p", id="features.next",
                tooltip="Next 50 features (PageDown)"),
        Binding("p", "page(-1)", "Prev page", show=False, id="features.prev",
                tooltip="Previous 50 features (PageUp)"),
        Binding("pagedown", "page(1)", "Next page", show=False, priority=True, id="features.pgdn"),
        Binding("pageup", "page(-1)", "Prev page", show=False, priority=True, id="features.pgup"),
        Binding("s", "focus_search", "Search", show=False, id="features.search",
                tooltip="Search by name (also /)"),
        Binding("r", "reload", "Reload", id="features.reload", tooltip="Read the page again"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.page = 0
        self.total = 0
        self.features: list[Feature] = []
        self._debounce: Timer | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(classes="toolbar"):
            yield Select[str]([], prompt="project", id="project", compact=True, allow_blank=True)
            yield Input(placeholder="search features (s)", id="search", compact=True)
        with Horizontal(classes="toolbar"):
            yield Select[str]([], prompt="any type", id="type", compact=True)
            yield Select[str](STATES[1:], prompt="any state", id="state", compact=True)
            yield Select[str](
                [(s, s) for s in STAGES], prompt="any stage", id="stage", compact=True
            )
            yield Select[str](SORTS, id="sort", compact=True, allow_blank=False, value="name:asc")
        yield Static("loading…", id="page-status", classes="status-line")
        yield ResourceTable(COLUMNS, id="features")

    def on_mount(self) -> None:
        self.query_one(ResourceTable).focus()
        self.load_choices()

    def on_screen_resume(self) -> None:
        if self.project:
            self.load_page()

    @property
    def project(self) -> str | None:
        value = self.query_one("#project", Select).value
        return value if isinstance(value, str) else None

    @work(exclusive=True, group="feature-choices", exit_on_error=False)
    async def load_choices(self) -> None:
        client = self.flagtui.client
        projects = await client.list_projects()
        types = await client.list_feature_types()
        self.query_one("#type", Select).set_options((t.name, t.id) for t in types)
        select = self.query_one("#project", Select)
        select.set_options(
            (p.name if p.name == p.id else f"{p.name} ({p.id})", p.id) for p in projects
        )
        ids = [p.id for p in projects]
        remembered = self.flagtui.project
        if ids:
            select.value = remembered if remembered in ids else ids[0]
        else:
            self.query_one("#page-status", Static).update("This server has no projects.")

    def _filters(self) -> dict[str, Any]:
        def chosen(widget_id: str) -> list[str]:
            value = self.query_one(f"#{widget_id}", Select).value
            return [value] if isinstance(value, str) and value else []

        sort = self.query_one("#sort", Select).value
        sort_by, _, order = (sort if isinstance(sort, str) else "name:asc").partition(":")
        return {
            "query": self.query_one("#search", Input).value.strip() or None,
            "project": self.project,
            "types": chosen("type"),
            "states": chosen("state"),
            "lifecycle": chosen("stage"),
            "sort_by": sort_by,
            "sort_order": order,
        }

    @work(exclusive=True, group="features", exit_on_error=False)
    async def load_page(self) -> None:
        if self.project is None:
            return
        status = self.query_one("#page-status", Static)
        status.update(f"loading page {self.page + 1}…")
        page = await self.flagtui.client.search_features(
            **self._filters(),
            offset=self.page * PAGE_SIZE,
            limit=PAGE_SIZE,
        )
        self.total = page.total
        pages = max(1, ceil(page.total / PAGE_SIZE))
        if self.page >= pages:
            self.page = pages - 1
            self.load_page()
            return
        self.features = page.features
        self.show_rows()
        noun = "feature" if page.total == 1 else "features"
        status.update(f"page {self.page + 1}/{pages} · {page.total} {noun}")

    def show_rows(self) -> None:
        short = short_names({e.name for f in self.features for e in f.environments or []})
        envs = max((len(f.environments or []) for f in self.features), default=1) * 3 - 1
        # Names get the width the other columns leave, so 80 columns need no horizontal scroll.
        width = max(16, self.size.width - 48 - envs)
        rows = [feature_row(f, short, width) for f in self.features]
        self.query_one(ResourceTable).set_rows(rows)

    def on_resize(self) -> None:
        if self.features:
            self.show_rows()

    def restart(self) -> None:
        self.page = 0
        self.load_page()

    @on(Select.Changed, "#project")
    def _project_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.flagtui.project = event.value
            self.restart()

    @on(Select.Changed, "#type, #state, #stage, #sort")
    def _filter_changed(self) -> None:
        self.restart()

    @on(Input.Changed, "#search")
    def _search_typed(self) -> None:
        if self._debounce is not None:
            self._debounce.stop()
        self._debounce = self.set_timer(DEBOUNCE_S, self.restart)

    @on(Input.Submitted, "#search")
    def _search_submitted(self) -> None:
        self.query_one(ResourceTable).focus()

    @on(ResourceTable.FilterRequested)
    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_page(self, delta: int) -> None:
        pages = max(1, ceil(self.total / PAGE_SIZE))
        target = min(max(self.page + delta, 0), pages - 1)
        if target != self.page:
            self.page = target
            self.load_page()

    def action_reload(self) -> None:
        self.load_page()

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        name = self.query_one(ResourceTable).selected_key
        if name and self.project:
            from flagtui.tui.screens.feature_detail import FeatureDetailScreen

            self.app.push_screen(FeatureDetailScreen(self.project, name))
