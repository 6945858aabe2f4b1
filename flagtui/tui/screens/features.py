"""Features: one page (50) of a project's flags at a time, searched, filtered and sorted by the
server. Enter opens the feature's detail; `t` switches the highlighted flag on or off in one
environment (`env_toggle`). `a` shows the archived flags (the stage filter set to
"archived") and back; an archived flag opens like any other and can be revived from its detail.
Space and `*` mark flags, `B` changes all the marked ones after a plan (`bulk_marks`)."""

from __future__ import annotations

import asyncio
import contextlib
from math import ceil
from typing import Any, ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal
from textual.widget import AwaitMount, Widget
from textual.widgets import DataTable, Input, Static

from flagtui.api.errors import FlagtuiError
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import Feature, FeaturePage, FeatureType, Project
from flagtui.contract import LIFECYCLE_STAGES
from flagtui.tui.areas import FEATURES
from flagtui.tui.format import counted, options, short_names
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.bulk_marks import BulkMarks
from flagtui.tui.screens.create_flag import create_flag_from
from flagtui.tui.screens.env_toggle import EnvironmentToggle
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.features_layout import COLUMNS, feature_row, features_body, search_box
from flagtui.tui.screens.kept_rows import KeptRows
from flagtui.tui.typing_pause import after_typing_pause
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.project_picker import ProjectPicker
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.table import ResourceTable, Row

PAGE_SIZE = 50
FILTERS_AFTER_S = 0.05
STATES = [("any state", ""), ("stale", "stale"), ("potentially stale", "potentially-stale")]
STAGE_OPTIONS = [(s, s) for s in LIFECYCLE_STAGES]
SORTS = [
    ("name ↑", "name:asc"),
    ("name ↓", "name:desc"),
    ("newest", "createdAt:desc"),
    ("oldest", "createdAt:asc"),
    ("type", "type:asc"),
]


def start_filters(project: str) -> dict[str, Any]:
    """What the filter widgets say until someone changes them: the page a start shows, kept in
    the row cache."""
    return {
        "query": None,
        "project": project,
        "types": [],
        "states": [],
        "lifecycle": [],
        "sort_by": "name",
        "sort_order": "asc",
    }


class FeaturesScreen(AreaScreen):
    AREA = FEATURES
    table = getters.query_one(ResourceTable)
    page_status = getters.query_one("#page-status", Static)
    project_slot = getters.query_one("#project-slot", Container)
    filter_bar = getters.query_one("#toolbar-filters", Horizontal)
    WRITE_ACTIONS = frozenset({EnvironmentToggle.ACTION, "create_flag", BulkMarks.ACTION})
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="features.open", tooltip="Show the feature's detail"),
        EnvironmentToggle.binding("features.toggle"),
        Binding("n", "page(1)", "Page", key_display="n/p", id="features.next",
                tooltip="Next 50 features (PageDown)"),
        Binding("p", "page(-1)", "Prev page", show=False, id="features.prev",
                tooltip="Previous 50 features (PageUp)"),
        Binding("pagedown", "page(1)", "Page", show=False, priority=True, id="features.pgdn"),
        Binding("pageup", "page(-1)", "Prev page", show=False, priority=True, id="features.pgup"),
        Binding("s", "focus_search", "Search", show=False, id="features.search",
                tooltip="Search by name (also /)"),
        Binding("r", "reload", "Reload", id="features.reload", tooltip="Read the page again"),
        Binding("a", "archived", "Archived", id="features.archived",
                tooltip="Show the archived flags (again: the live ones)"),
        Binding("C", "create_flag", "Create flag", id="features.create",
                tooltip="A new flag in this project, then its detail for the rollout"),
        *BulkMarks.BINDINGS,
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.env_toggle = EnvironmentToggle(self, lambda: self.load_page(fresh=True))
        self.marks = BulkMarks(self, lambda: self.load_page(fresh=True), self.redraw_times)
        self.project: str | None = None
        self.page = 0
        self.total = 0
        self.features: list[Feature] = []
        self._requested: dict[str, Any] | None = None
        self._choices: tuple[list[Project], list[FeatureType]] | None = None
        self._early_project: str | None = None  # its first page was asked for at start
        self._page_read = False
        self._page_status = ""
        self._choices_failed = False  # said in the status line until they are read
        self._mounted = asyncio.Event()
        self._rows_of = KeptRows()
        self.search_box = search_box()  # composed with the screen: `s` finds it at once
        # By id (a query walks the screen): the search box, and the Selects once mounted.
        self._filter_widgets: dict[str, Widget] = {"search": self.search_box}
        self._filters_mounted: list[AwaitMount] = []

    def compose_body(self) -> ComposeResult:
        self.load_choices()  # sent now, answered while the screen is built and drawn
        table: ResourceTable[Feature] = ResourceTable(COLUMNS, id="features")
        status = "loading…"
        remembered = self.flagtui.project
        if remembered:
            # The remembered project's first page needs no project list: it goes out now,
            # with ui-config and the choices, and its rows from the last run show meanwhile.
            self.project = self._early_project = remembered
            status = self.show_cached_rows("features", table, remembered) or status
            self.load_page()
        # The Selects (the project picker and four filters, costly to build) wait for the
        # first page; the search box is there from the start.
        yield from features_body(table, self.search_box, status)

    def on_mount(self) -> None:
        focus_now(self.table)  # at once: keys typed ahead must not find the search box focused
        self._mounted.set()

    def on_screen_resume(self) -> None:
        if self.project and self._page_read:
            self.load_page()

    @work(exclusive=True, group="feature-choices", exit_on_error=False)
    @read
    async def load_choices(self) -> None:
        client = self.flagtui.client
        projects, types = await asyncio.gather(client.projects.list(), client.feature_types.list())
        self._choices = projects, types
        ids = [p.id for p in projects]
        if not ids:
            self.page_status.update("This server has no projects.")
            self.show_filters()
            return
        remembered = self.flagtui.project
        self.project = remembered if remembered in ids else ids[0]
        self.flagtui.project = self.project
        for mounting in self._filters_mounted:  # mounted, but maybe not yet composed
            await mounting
        self.fill_filters()
        self._choices_failed = False
        early, self._early_project = self._early_project, None
        if self.project != early or not (self._page_read or self.write_in_flight("features")):
            self.restart()
        elif self._page_read:  # said after the early page, the choices' failure is over
            self.page_status.update(self._page_status)

    def fill_filters(self) -> None:
        """After a failed first read the filters were mounted empty: give them the choices."""
        projects, types = self._choices or ([], [])
        for picker in self.query(ProjectPicker):
            with self.prevent(Select.Changed):
                picker.show_projects(projects, self.project)
        for select in self.query("#type").results(Select):
            select.set_options((t.name, t.id) for t in types)

    @work(exclusive=True, group="features-filters", exit_on_error=False)
    async def show_filters_later(self) -> None:
        """Once the rows are on screen (`call_after_refresh` may run before they are drawn);
        a worker, not a timer, so whoever waits for the app to be idle waits for it too."""
        await asyncio.sleep(FILTERS_AFTER_S)
        self.show_filters()

    def show_filters(self) -> None:
        """Mount the Selects (once): after the first page, or when there is none."""
        if self._filters_mounted:
            return
        projects, types = self._choices or ([], [])
        shown = self.project if any(p.id == self.project for p in projects) else None
        picker = ProjectPicker(projects, value=shown)
        filters = [
            Select[str](options((t.name, t.id) for t in types), prompt="any type", id="type",
                        compact=True),
            Select[str](STATES[1:], prompt="any state", id="state", compact=True),
            Select[str](STAGE_OPTIONS, prompt="any stage", id="stage", compact=True),
            Select[str](SORTS, id="sort", compact=True, allow_blank=False, value="name:asc"),
        ]  # fmt: skip
        self._filters_mounted = [
            self.project_slot.mount(picker),
            self.filter_bar.mount(*filters),
        ]
        self._filter_widgets.update((str(w.id), w) for w in [picker, *filters])

    def _filters(self) -> dict[str, Any]:
        """What the filter widgets say (the Selects' defaults until they are mounted)."""

        def value(widget_id: str) -> str:
            widget = self._filter_widgets.get(widget_id)
            chosen = getattr(widget, "value", "")
            return chosen if isinstance(chosen, str) else ""

        def chosen(widget_id: str) -> list[str]:
            picked = value(widget_id)
            return [picked] if picked else []

        sort_by, _, order = (value("sort") or "name:asc").partition(":")
        return {
            "query": value("search").strip() or None,
            "project": self.project,
            "types": chosen("type"),
            "states": chosen("state"),
            "lifecycle": chosen("stage"),
            "sort_by": sort_by,
            "sort_order": order,
        }

    @work(exclusive=True, group="features", exit_on_error=False)
    @read
    async def load_page(self, fresh: bool = False) -> None:
        """`fresh`: ask the server, never the client's search cache (the user pressed r)."""
        if self.project is None:
            return
        if self._mounted.is_set() and not self.showing_cached("features"):
            status = self.page_status
            status.update(f"loading page {self.page + 1}…", layout="-failed" in status.classes)
        self._requested = self._filters()
        page = await self.flagtui.client.features.search(
            FeatureQuery(**self._requested, offset=self.page * PAGE_SIZE, limit=PAGE_SIZE),
            fresh=fresh,
        )
        await self._mounted.wait()  # the first page may be answered before the screen is built
        self.show_page(page, fresh)

    def show_page(self, page: FeaturePage, fresh: bool = False) -> None:
        if self.project is None:
            return
        status = self.page_status
        self.total = page.total
        pages = max(1, ceil(page.total / PAGE_SIZE))
        if self.page >= pages:
            self.page = pages - 1
            self.load_page(fresh)
            return
        self.features = page.features
        rows = self.show_rows()
        self._page_read = True
        start = self.page == 0 and self._requested == start_filters(self.project)
        self.rows_read("features", self.project, rows, keep=start)
        self._page_status = f"page {self.page + 1}/{pages} · {counted(page.total, 'feature')}"
        if not self._choices_failed:  # else the status line says that, and how to retry
            # One line (unless it said a failure): nothing moves, no layout to work out again.
            status.update(self._page_status, layout="-failed" in status.classes)
        if not self._filters_mounted:  # a worker on every page change cost a PageDown 1-2 ms
            self.show_filters_later()
        if self.page + 1 < pages and self.held_page(self.page + 1, self._filters()) is None:
            self.prefetch(self.page + 1)

    def held_page(self, page: int, filters: dict[str, Any]) -> FeaturePage | None:
        """The page if the client holds it (read ahead, or shown before): no wait, no worker."""
        return self.flagtui.client.features.held(
            FeatureQuery(**filters, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
        )

    @work(exclusive=True, group="features-prefetch", exit_on_error=False)
    async def prefetch(self, page: int) -> None:
        """Read the next page ahead into the client's cache, so PageDown only has to draw."""
        with contextlib.suppress(FlagtuiError):  # it is asked for again on PageDown
            await self.flagtui.client.features.prefetch(
                FeatureQuery(**self._filters(), offset=page * PAGE_SIZE, limit=PAGE_SIZE)
            )

    def io_failed(self, group: str, error: BaseException) -> None:
        self._choices_failed = self._choices_failed or group == "feature-choices"
        super().io_failed(group, error)
        self.show_filters_later()

    def show_rows(self) -> list[Row]:
        """The client answers a search it holds with the same page, so a page shown again (
        PageUp, PageDown) finds its rows ready, which the table then shows without converting
        them again; so does a page read again that came back the same."""
        rows = self._rows_of.get(self.features)
        if rows is None:
            short = short_names({e.name for f in self.features for e in f.environments or []})
            rows = [feature_row(f, short, self.marks.label(f.name)) for f in self.features]
            self._rows_of.keep(self.features, rows)
        # Names get the width the other columns leave, so 80 columns need no horizontal scroll.
        self.table.set_rows(rows, self.features)
        return rows

    def redraw_times(self) -> None:
        self._rows_of.clear()
        self.show_rows()

    def restart(self) -> None:
        self.page = 0
        if self.project is not None:  # else the projects are not read yet (or failed)
            self.load_page()

    @on(Select.Changed, "#project")
    def _project_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.project:
            self.project = self.flagtui.project = event.value
            self.marks.clear()  # marks name flags of one project
            self.restart()

    @on(Select.Changed, "#type, #state, #stage, #sort")
    def _filter_changed(self) -> None:
        if self._filters() != self._requested:
            self.restart()

    @on(Input.Changed, "#search")
    def _search_typed(self) -> None:
        self.after_typing()

    @after_typing_pause("features-typing")
    def after_typing(self) -> None:
        self.restart()

    @on(Input.Submitted, "#search")
    def _search_submitted(self) -> None:
        self.table.focus()

    def open_filter(self) -> None:
        self.action_focus_search()

    def action_focus_search(self) -> None:
        focus_now(self.search_box)

    def action_page(self, delta: int) -> None:
        pages = max(1, ceil(self.total / PAGE_SIZE))
        target = min(max(self.page + delta, 0), pages - 1)
        if target == self.page:
            return
        self.page = target
        filters = self._filters()
        held = self.held_page(target, filters) if self._mounted.is_set() else None
        if held is None:
            self.load_page()
            return
        # Shown at once: a page already read costs a draw, not a worker's round trip.
        self.workers.cancel_group(self, "features")
        self._requested = filters
        self.show_page(held)

    def action_reload(self) -> None:
        if self._choices is None:  # the first read failed: start again from the projects
            self._early_project = None  # and from its first page, whatever became of it
            self.load_choices()
        else:
            self.load_page(fresh=True)

    async def action_archived(self) -> None:
        """Switch the stage filter between "archived" and any stage (mounting it if needed:
        `a` before the first page found it mounted but not yet composed, and the app failed)."""
        self.show_filters()
        for mounting in self._filters_mounted:
            await mounting
        stage = self.query_one("#stage", Select)
        stage.value = Select.NULL if stage.value == "archived" else "archived"

    def action_toggle_environment(self) -> None:
        feature: Feature | None = self.table.selected_record
        if feature is not None and self.project:
            self.env_toggle.toggle(self.project, feature)

    def action_bulk(self, what: str) -> None:
        self.marks.act(what, self.project, self.table.selected_record, self._filters())

    @work(exclusive=True, group="create-flag-types", exit_on_error=False)
    async def action_create_flag(self) -> None:
        """The form, with the server's feature types; the new flag's detail once created."""
        await create_flag_from(self, self.project, lambda: self.load_page(fresh=True))

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        feature: Feature | None = self.table.selected_record
        if feature is not None and self.project:
            self.app.push_screen(FeatureDetailScreen(self.project, feature.name, summary=feature))
