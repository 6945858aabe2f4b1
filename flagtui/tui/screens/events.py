"""The event log (operation 9): search by type (completed from the contract's list, or picked
from it with `T`), project, feature (`s`: a flag's exact name), free text, author (a user id)
and dates; one page of 50 or 100 at a time, newest first, paged by the server's cursor (a stack
of cursors goes back); the last page says so and `n` never shows an empty page past it. Enter
shows the event and what it changed; `o` opens the flag it names.

Other screens open it filtered (a flag's events, a user's events) through the area registry:
such an event log was pushed over them, and Escape goes back."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Input, Static

from flagtui.api import capabilities
from flagtui.api.models import EventRecord
from flagtui.contract import EVENT_TYPES
from flagtui.tui.format import counted, shared_zone, when
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.event_detail import EventDetailScreen
from flagtui.tui.screens.jump_flag import open_flag_of_event
from flagtui.tui.typing_pause import after_typing_pause
from flagtui.tui.widgets.event_type_picker import EventTypePicker
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import MessageLine, PlainStatic

PAGE_SIZES = (50, 100)
COLUMNS = [
    Column("id", "ID"),
    Column("time", "Time"),
    Column("type", "Type", max=28, min=20, middle=True),
    Column("project", "Project", max=14),
    Column("feature", "Feature", flex=True, min=8, fair=16),
    Column("by", "Created by", max=20, min=7),
]


def event_row(event: EventRecord, *, zoned: bool = True) -> Row:
    cells = (
        str(event.id),
        when(event.created_at, zoned=zoned),
        event.type,
        event.project or "",
        event.feature_name or "",
        event.created_by or "",
    )
    return str(event.id), cells


class BadFilter(ValueError):
    """A filter the user typed that cannot be sent: the message names the field and the form."""


def parse_day(field: str, text: str | None) -> dt.date | None:
    if not text:
        return None
    try:
        if len(text) != 10:
            raise ValueError
        return dt.date.fromisoformat(text)
    except ValueError:
        raise BadFilter(f"{field}: {text!r} is not a date; write it as yyyy-mm-dd.") from None


def parse_author(text: str | None) -> int | None:
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise BadFilter(f"author: {text!r} is not a user id (a number, like 2).") from None


class EventsScreen(AreaScreen):
    AREA = "events"
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back", id="events.back",
                tooltip="Back to the record this event log was opened from"),
        Binding("enter", "open", "Open", id="events.open",
                tooltip="The event in full, with what it changed"),
        Binding("o", "open_flag", "Open flag", id="events.flag",
                tooltip="The detail of the flag the event names"),
        Binding("T", "pick_type", "Pick type", id="events.types",
                tooltip="Pick the event type from a list"),
        Binding("n", "next_page", "Page", key_display="n/p", id="events.next",
                tooltip="Older events (next page)"),
        Binding("p", "prev_page", "Prev page", show=False, id="events.prev",
                tooltip="Newer events (previous page)"),
        Binding("s", "focus_flag", "Search flag", id="events.search",
                tooltip="A flag's exact name: its events (Tab: project, text, author, dates)"),
        Binding("plus", "page_size", "50/100", key_display="+", id="events.size",
                tooltip="50 or 100 events a page"),
        Binding("r", "reload", "Reload", id="events.reload", tooltip="Read the page again"),
    ]  # fmt: skip

    READ_STATUS = "#events-status"
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#events-status", Static)
    note_line = getters.query_one("#events-note", MessageLine)
    type_box = getters.query_one("#type", Input)
    feature_box = getters.query_one("#feature", Input)

    def __init__(
        self,
        *,
        project: str | None = None,
        feature: str | None = None,
        created_by: int | None = None,
    ) -> None:
        """Filters given here preset the search: the event log was opened from a record."""
        super().__init__()
        self.jumped = any(v is not None for v in (project, feature, created_by))
        self.preset = {
            "project": project or "",
            "feature": feature or "",
            "author": "" if created_by is None else str(created_by),
        }
        self.limit = PAGE_SIZES[0]
        self.cursor: int | None = None
        self.back: list[tuple[int | None, int]] = []  # (cursor, events shown) of earlier pages
        self.next_cursor: int | None = None
        self.events: list[EventRecord] = []

    def compose_body(self) -> ComposeResult:
        with Horizontal(classes="toolbar"):
            yield InertInput(
                placeholder="type (→ completes)",
                id="type",
                compact=True,
                suggester=SuggestFromList(EVENT_TYPES, case_sensitive=True),
            )
            yield InertInput(
                self.preset["project"], placeholder="project", id="project", compact=True
            )
            yield InertInput(
                self.preset["feature"], placeholder="feature (s)", id="feature", compact=True
            )
            yield InertInput(placeholder="free text", id="query", compact=True)
        with Horizontal(classes="toolbar"):
            yield InertInput(self.preset["author"], placeholder="author (user id)", id="author",
                        compact=True)  # fmt: skip
            yield InertInput(placeholder="from yyyy-mm-dd", id="from", compact=True)
            yield InertInput(placeholder="to yyyy-mm-dd", id="to", compact=True)
        yield MessageLine("", id="events-note", classes="status-line")
        yield PlainStatic("loading…", id="events-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="events"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.restart()

    def value(self, widget_id: str) -> str | None:
        return self.query_one(f"#{widget_id}", InertInput).raw_value.strip() or None

    def restart(self) -> None:
        self.cursor = None
        self.back = []
        event_type = self.value("type")
        status = self.status_line
        if event_type and event_type not in EVENT_TYPES:
            status.update(
                f"{event_type!r} is not an event type: pick one from the list (T) or the"
                " completions (→)."
            )
            return
        self.load()

    def filters(self) -> tuple[int | None, dt.date | None, dt.date | None]:
        """Author and dates as the client takes them; BadFilter names what is wrong, and what
        this server cannot filter (the note above the table says so too)."""
        author = parse_author(self.value("author"))
        since, until = parse_day("from", self.value("from")), parse_day("to", self.value("to"))
        if since and until and since > until:
            raise BadFilter(f"from ({since}) is after to ({until}): no event can match.")
        needs = self.dates_need()
        if needs and (author is not None or since or until):
            raise BadFilter(f"This server cannot filter events by author or date: {needs}.")
        return author, since, until

    def dates_need(self) -> str | None:
        """What the server needs to filter by author and date ("Unleash 6.1"), or None."""
        needs = capabilities.missing(self.flagtui.client.server, capabilities.EVENT_DATES)
        self.note_line.update(
            f"This server cannot filter events by author or date ({needs} can):"
            " type, project, feature and text only."
            if needs
            else ""
        )
        return needs

    @work(exclusive=True, group="events", exit_on_error=False)
    @read
    async def load(self, forward: bool = False) -> None:
        """Read the page at `self.cursor`; `forward` (n) keeps the page shown when the next one
        turns out empty (the server's count changed, or it could not say)."""
        status = self.status_line
        status.update("searching…")
        try:
            author, since, until = self.filters()
        except BadFilter as bad:
            status.update(str(bad))
            return
        page = await self.flagtui.client.events.search(
            type=self.value("type"),
            project=self.value("project"),
            feature=self.value("feature"),
            query=self.value("query"),
            limit=self.limit,
            cursor=self.cursor,
            created_by=author,
            since=since,
            until=until,
        )
        if forward and not page.events and self.back:
            self.cursor = self.back.pop()[0]
            self.next_cursor = None
            self.show_status(page.total)
            self.notify("This is the last page.", timeout=3)
            return
        self.events = page.events
        seen = sum(shown for _, shown in self.back) + len(page.events)
        past_total = page.total is not None and seen >= page.total
        self.next_cursor = None if past_total else page.next_cursor
        self.show()
        self.show_status(page.total)

    def show_status(self, total: int | None) -> None:
        shown = len(self.events)
        events = (
            counted(shown, "event") if total is None else f"{shown} of {counted(total, 'event')}"
        )
        more = "" if self.next_cursor is not None else " · last page"
        self.status_line.update(f"page {len(self.back) + 1} · {events} · {self.limit} a page{more}")

    def show(self) -> None:
        # The zone said once, in the header, where every row shares it: 4 columns more for a
        # flag's name on a narrow terminal (9 to 13 at 80 columns).
        zone = shared_zone(e.created_at for e in self.events)
        self.table.relabel("time", f"Time ({zone})" if zone else "Time")
        rows = [event_row(e, zoned=zone is None) for e in self.events]
        self.table.set_rows(rows, self.events)

    def redraw_times(self) -> None:
        self.show()

    @on(Input.Changed, ".toolbar Input")
    def _typed(self) -> None:
        self.after_typing()

    @after_typing_pause("events-typing")
    def after_typing(self) -> None:
        self.restart()

    @on(Input.Submitted, ".toolbar Input")
    def _submitted(self) -> None:
        self.workers.cancel_group(self, "events-typing")
        self.restart()
        self.table.focus()

    def action_focus_flag(self) -> None:
        focus_now(self.feature_box)

    def action_next_page(self) -> None:
        if self.next_cursor is None:
            self.notify("This is the last page.", timeout=3)
            return
        self.back.append((self.cursor, len(self.events)))
        self.cursor = self.next_cursor
        self.load(forward=True)

    def action_prev_page(self) -> None:
        if self.back:
            self.cursor = self.back.pop()[0]
            self.load()

    def action_page_size(self) -> None:
        self.limit = PAGE_SIZES[(PAGE_SIZES.index(self.limit) + 1) % len(PAGE_SIZES)]
        self.restart()

    def action_reload(self) -> None:
        self.load()

    @property
    def selected(self) -> EventRecord | None:
        event: EventRecord | None = self.table.selected_record
        return event

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        if self.selected is not None:
            self.app.push_screen(EventDetailScreen(self.selected))

    def action_open_flag(self) -> None:
        if self.selected is not None:
            open_flag_of_event(self, self.selected, "This event")

    def action_pick_type(self) -> None:
        def picked(event_type: str | None) -> None:
            if event_type is not None:
                self.type_box.value = event_type
                self.workers.cancel_group(self, "events-typing")
                self.restart()
                self.table.focus()

        self.app.push_screen(EventTypePicker(EVENT_TYPES, self.value("type")), picked)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back" and not self.jumped:
            return False
        return super().check_action(action, parameters)

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.table.focus()
            return
        self.app.pop_screen()
