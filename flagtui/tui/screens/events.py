"""The event log (operation 9): search by type (completed from the contract's list), project,
feature and free text; one page of 50 or 100 at a time, newest first, paged by the server's
cursor (a stack of cursors goes back). Enter shows the event and what it changed."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Input, Static

from flagtui.api.models import EventRecord
from flagtui.contract import EVENT_TYPES
from flagtui.tui.format import when
from flagtui.tui.reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.event_detail import EventDetailScreen
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

PAGE_SIZES = (50, 100)
DEBOUNCE_S = 0.5
COLUMNS = [
    Column("id", "ID"),
    Column("time", "Time"),
    Column("type", "Type", max=28, min=20, middle=True),
    Column("project", "Project", max=14),
    Column("feature", "Feature", flex=True, min=8),
    Column("by", "Created by", max=20, min=7),
]


def event_row(event: EventRecord) -> Row:
    cells = (
        str(event.id),
        when(event.created_at),
        event.type,
        event.project or "",
        event.feature_name or "",
        event.created_by or "",
    )
    return str(event.id), cells


class EventsScreen(AreaScreen):
    AREA = "events"
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="events.open",
                tooltip="The event in full, with what it changed"),
        Binding("n", "next_page", "Page", key_display="n/p", id="events.next",
                tooltip="Older events (next page)"),
        Binding("p", "prev_page", "Prev page", show=False, id="events.prev",
                tooltip="Newer events (previous page)"),
        Binding("s", "focus_search", "Search", id="events.search",
                tooltip="Edit the search (type, project, feature, text); also /"),
        Binding("l", "page_size", "50/100", id="events.size", tooltip="50 or 100 events a page"),
        Binding("r", "reload", "Reload", id="events.reload", tooltip="Read the page again"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.limit = PAGE_SIZES[0]
        self.cursor: int | None = None
        self.back: list[int | None] = []
        self.next_cursor: int | None = None
        self.events: list[EventRecord] = []

    def compose_body(self) -> ComposeResult:
        with Horizontal(classes="toolbar"):
            yield Input(
                placeholder="type (→ completes)",
                id="type",
                compact=True,
                suggester=SuggestFromList(EVENT_TYPES, case_sensitive=True),
            )
            yield Input(placeholder="project", id="project", compact=True)
            yield Input(placeholder="feature", id="feature", compact=True)
            yield Input(placeholder="free text", id="query", compact=True)
        yield PlainStatic("loading…", id="events-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="events"))

    def on_mount(self) -> None:
        self.query_one(ResourceTable).focus()
        self.restart()

    def value(self, widget_id: str) -> str | None:
        return self.query_one(f"#{widget_id}", Input).value.strip() or None

    def restart(self) -> None:
        self.cursor = None
        self.back = []
        event_type = self.value("type")
        if event_type and event_type not in EVENT_TYPES:
            self.query_one("#events-status", Static).update(
                f"{event_type!r} is not an event type: pick one from the completions (→)."
            )
            return
        self.load()

    @work(exclusive=True, group="events", exit_on_error=False)
    @read
    async def load(self) -> None:
        status = self.query_one("#events-status", Static)
        status.update("searching…")
        page = await self.flagtui.client.search_events(
            type=self.value("type"),
            project=self.value("project"),
            feature=self.value("feature"),
            query=self.value("query"),
            limit=self.limit,
            cursor=self.cursor,
        )
        self.events = page.events
        self.next_cursor = page.next_cursor
        self.show()
        total = f" of {page.total}" if page.total is not None else ""
        more = "" if page.next_cursor is not None else " · last page"
        status.update(
            f"page {len(self.back) + 1} · {len(page.events)}{total} events · "
            f"{self.limit} a page{more}"
        )

    def show(self) -> None:
        self.query_one(ResourceTable).set_rows([event_row(e) for e in self.events], self.events)

    def redraw_times(self) -> None:
        self.show()

    @on(Input.Changed, ".toolbar Input")
    def _typed(self) -> None:
        self.after_typing()

    @work(exclusive=True, group="events-typing", exit_on_error=False)
    async def after_typing(self) -> None:
        """Each key restarts this worker: the search runs once typing pauses."""
        await asyncio.sleep(DEBOUNCE_S)
        self.restart()

    @on(Input.Submitted, ".toolbar Input")
    def _submitted(self) -> None:
        self.workers.cancel_group(self, "events-typing")
        self.restart()
        self.query_one(ResourceTable).focus()

    @on(ResourceTable.FilterRequested)
    def action_focus_search(self) -> None:
        self.query_one("#type", Input).focus()

    def action_next_page(self) -> None:
        if self.next_cursor is None:
            self.notify("This is the last page.", timeout=3)
            return
        self.back.append(self.cursor)
        self.cursor = self.next_cursor
        self.load()

    def action_prev_page(self) -> None:
        if self.back:
            self.cursor = self.back.pop()
            self.load()

    def action_page_size(self) -> None:
        self.limit = PAGE_SIZES[(PAGE_SIZES.index(self.limit) + 1) % len(PAGE_SIZES)]
        self.restart()

    def action_reload(self) -> None:
        self.load()

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        event: EventRecord | None = self.query_one(ResourceTable).selected_record
        if event is not None:
            self.app.push_screen(EventDetailScreen(event))
