"""Failures across all integrations, from the failure source the app chooses (the delivery
archive when there is one, else the live server, which the screen says): one row per
unsuccessful delivery, newest first, or grouped by integration and error (`=`); Enter opens a
delivery, or a group's deliveries. `w`/`W` choose the time window (shared with the
Integrations screen's sparklines), `F` follows (a read every few seconds, never two at once;
rows new since the last read are marked for a moment), `b` rings the terminal's bell when
new failures come in, `x` disables or enables the highlighted row's integration."""

from __future__ import annotations

import time
from typing import ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import DataTable, Input

from flagtui.triage.records import Failure, FailureGroup, FailureWindow, IntegrationRef, labels
from flagtui.triage.source import FailureSource
from flagtui.tui.format import ago, counted
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.delivery_detail import DeliveryDetailScreen
from flagtui.tui.screens.integration_switch import IntegrationSwitch
from flagtui.tui.screens.jump_flag import open_flag_of_delivery
from flagtui.tui.triage_view import (
    TimeWindow,
    delivery_model,
    failure_cells,
    failure_key,
    failure_preview,
    group_cells,
    group_key,
    group_preview,
    now_utc,
    source_line,
    window_since,
)
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

FOLLOW_S = 5.0  # a read this often while following
NEW_FOR_S = 4.0  # how long rows new since the last read stay marked
AGES_EVERY_S = 30.0  # "4 min ago" drawn again, without a read
# Names before details: the flexible details or error column gives way first (down to its
# floor); an integration's name is cut only past this or when that is not enough, and then
# keeps its first half and its end (the provider).
MAX_NAME = 56
LIST_COLUMNS = [
    Column("new", ""),
    Column("age", "When"),
    Column("integration", "Integration", max=MAX_NAME, min=14, middle=True, head=None),
    Column("state", "State"),
    Column("origin", "From"),
    Column("details", "Details", flex=True),
]
GROUP_COLUMNS = [
    Column("new", ""),
    Column("integration", "Integration", max=MAX_NAME, min=14, middle=True, head=None),
    Column("count", "Count"),
    Column("first", "First seen"),
    Column("last", "Last seen"),
    Column("error", "Error", flex=True),
]


class FailureDetailScreen(DeliveryDetailScreen):
    AREA = "failures"


class FailuresScreen(AreaScreen):
    AREA = "failures"
    FOLLOW_S: ClassVar[float] = FOLLOW_S
    READ_STATUS = "#failures-status"
    status_line = getters.query_one("#failures-status", PlainStatic)
    source_note = getters.query_one("#failures-source", PlainStatic)
    failure_table = getters.query_one("#failures", ResourceTable)
    group_table = getters.query_one("#failure-groups", ResourceTable)
    failures_view = getters.query_one("#failures-list", FilteredTable)
    groups_view = getters.query_one("#groups-list", FilteredTable)
    preview = getters.query_one("#failure-preview", PlainStatic)
    WRITE_ACTIONS = frozenset({IntegrationSwitch.ACTION})
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="failures.open",
                tooltip="The delivery in full, or the group's deliveries"),
        Binding("o", "open_flag", "Open flag", id="failures.flag", show=False,
                tooltip="The detail of the flag the delivery's triggering event names"),
        Binding("w", "window(1)", "Window", key_display="w/W", id="failures.window",
                tooltip="The next time window: 15m, 1h, 6h, 24h, 7d, all, then 15m again"),
        Binding("W", "window(-1)", "Previous window", show=False, id="failures.window-back",
                tooltip="The previous time window"),
        Binding("equals_sign", "grouped", "Grouped", key_display="=", id="failures.grouped",
                tooltip="Group by integration and error (again: one row per delivery)"),
        Binding("F", "follow", "Follow", id="failures.follow",
                tooltip=f"Read again every {FOLLOW_S:g} s, marking new rows (again: stop)"),
        Binding("b", "bell", "Bell", show=False, id="failures.bell",
                tooltip="Ring the terminal's bell when new failures come in (off at start)"),
        IntegrationSwitch.binding("failures"),
        Binding("r", "reload", "Reload", id="failures.reload",
                tooltip="Read the failures again"),
    ]  # fmt: skip

    def __init__(self, group: FailureGroup | None = None) -> None:
        """`group`: only that group's deliveries (opened from the grouped view)."""
        super().__init__()
        self.integration_switch = IntegrationSwitch(self, self.switch_target, self.load)
        self.group = group
        self.source: FailureSource | None = None
        self.answer: FailureWindow | None = None
        self.grouped = False
        self.following = False
        self.bell = False
        self.fresh: dict[str, float] = {}  # rows new since the read before: marked until then
        self._seen: dict[str, int] | None = None  # what the last good read of this view showed
        self._seen_view: tuple[str, bool] | None = None
        self._read_error: BaseException | None = None
        self._follow: Timer | None = None
        self._said = ""

    def compose_body(self) -> ComposeResult:
        if self.group is not None:
            title = f"{self.group.integration.label} · {self.group.error_key}"
            yield PlainStatic(title, id="failures-title", classes="status-line")
        yield PlainStatic("loading…", id="failures-status", classes="status-line")
        yield PlainStatic("", id="failures-source", classes="status-line")
        yield FilteredTable(ResourceTable(LIST_COLUMNS, id="failures"), id="failures-list")
        groups = FilteredTable(ResourceTable(GROUP_COLUMNS, id="failure-groups"), id="groups-list")
        groups.display = False
        yield groups
        yield PlainStatic("", id="failure-preview", classes="delivery-preview")

    def on_mount(self) -> None:
        self.source = self.flagtui.failure_source()
        focus_now(self.table)
        self._follow = self.set_interval(self.FOLLOW_S, self._follow_tick, pause=True)
        self.set_interval(1.0, self._tick)
        self.set_interval(AGES_EVERY_S, self.show)
        self.load()

    @property
    def window(self) -> str:
        return TimeWindow.name(self.source.origin if self.source else "live")

    @property
    def view(self) -> tuple[str, bool]:
        """What is read: the window, and whether grouped."""
        return self.window, self.grouped

    @property
    def table(self) -> ResourceTable[Failure | FailureGroup]:
        table: ResourceTable[Failure | FailureGroup]
        table = self.group_table if self.grouped else self.failure_table
        return table

    @work(exclusive=True, group="failures", exit_on_error=False)
    @read
    async def load(self) -> None:
        source = self.source
        if source is None:
            return
        view, now = self.view, now_utc()
        since = window_since(view[0], now)
        if self.answer is None:
            self.say(f"reading failures ({view[0]})…")
        if view[1]:
            answer = await source.grouped(since)
        else:
            group = self.group
            answer = await source.window(
                since,
                integration_id=group.integration.id if group else None,
                key=group.error_key if group else None,
            )
        self.took(answer, view)

    def took(self, answer: FailureWindow, view: tuple[str, bool]) -> None:
        """A read succeeded: rows the last good read of the same view did not show (or showed
        with a smaller count) are marked new for a few seconds; none on a first read or a new
        view."""
        if view[1]:
            seen = {group_key(g): g.count for g in answer.groups}
        else:
            seen = {failure_key(f): 0 for f in answer.failures}
        before = self._seen if self._seen_view == view else None
        new = set() if before is None else {k for k, n in seen.items() if before.get(k, -1) < n}
        self._seen, self._seen_view = seen, view
        self.answer, self._read_error = answer, None
        if before is None:
            self.fresh.clear()
        if new:
            until = time.monotonic() + NEW_FOR_S
            self.fresh.update(dict.fromkeys(new, until))
            self.set_timer(NEW_FOR_S, self.show)  # the marks go
            if self.bell:
                self.app.bell()
        self.show()

    def marked(self) -> set[str]:
        """The rows still marked new."""
        moment = time.monotonic()
        self.fresh = {key: until for key, until in self.fresh.items() if until > moment}
        return set(self.fresh)

    def show(self) -> None:
        answer = self.answer
        if answer is None:
            return
        now, fresh, names = now_utc(), self.marked(), self.names
        rows: list[Row]
        if self.grouped:
            rows = [
                (group_key(g), group_cells(g, now, group_key(g) in fresh, names))
                for g in answer.groups
            ]
            self.table.set_rows(rows, answer.groups)
        else:
            rows = [
                (failure_key(f), failure_cells(f, now, failure_key(f) in fresh, names))
                for f in answer.failures
            ]
            self.table.set_rows(rows, answer.failures)
        self.source_note.update(source_line(answer, now, outage=self.flagtui.connect_failure))
        self._tick()
        self.show_preview()

    @property
    def names(self) -> dict[int, str]:
        """The integrations' labels, told apart (an id where two read the same)."""
        return labels(self.answer.integrations) if self.answer is not None else {}

    def status(self) -> str:
        answer = self.answer
        if answer is None:
            return ""
        failing = len(
            {f.integration.id for f in answer.failures} | {g.integration.id for g in answer.groups}
        )
        held = len(answer.failures)
        count = f"{answer.total or 'no'} failure{'s' if answer.total != 1 else ''}"
        if not self.grouped and held < answer.total:
            count = f"newest {held} of {count}"
        parts = [f"window {self.window} (w)", count]
        if self.grouped:
            parts.append(counted(len(answer.groups), "group"))
        if self.group is None:
            parts.append(f"{failing} of {counted(len(answer.integrations), 'integration')}")
        if self.following:
            parts.append(f"following · {self.data_age(answer)}")
        if self.bell:
            parts.append("bell on")
        return " · ".join(parts)

    @staticmethod
    def data_age(answer: FailureWindow) -> str:
        """How old the data is (an archive's last collection, not when it was read)."""
        if answer.as_of is None:
            return "never collected"
        return f"updated {ago(max(0.0, (now_utc() - answer.as_of).total_seconds()))}"

    def say(self, text: str) -> None:
        if text != self._said:  # each second: redrawn only when it changed
            self._said = text
            self.status_line.update(text)

    def _tick(self) -> None:
        """The status line, each second: "updated 3 s ago" while following, or how old the
        rows are when the last read failed."""
        if self._read_error is not None:
            self.say(self.read_failure_text("failures", self._read_error))
        elif self.answer is not None:
            self.say(self.status())

    def show_read_failure(self, group: str, error: BaseException) -> None:
        """Said in the status line (with the rows' age, each second); the rows stay, none
        marked new: the next good read marks what the last good one did not show."""
        super().show_read_failure(group, error)
        self._said = ""
        if group == "failures":
            self._read_error = error
            if self.fresh:
                self.fresh.clear()
                self.show()

    def redraw_times(self) -> None:
        self.show()

    @on(DataTable.RowHighlighted)
    @on(Input.Changed)
    def show_preview(self) -> None:
        """The highlighted row, whatever changed it: a key, a read, the `/` filter (which may
        leave no row at all)."""
        record = self.table.selected_record
        preview = self.preview
        now, width = now_utc(), preview.content_region.width or 78
        if isinstance(record, FailureGroup):
            text = group_preview(record, now, width, self.names)
        else:
            text = failure_preview(record, now, width, self.names)
        preview.update(text)

    def switch_target(self) -> IntegrationRef | None:
        record = self.table.selected_record
        return record.integration if record is not None else None

    def action_toggle_integration(self) -> None:
        self.integration_switch.ask()

    def action_reload(self) -> None:
        if self.flagtui.connect_failure is not None:  # started with the server down: try again
            self.flagtui.action_connect()
        self.load()

    def action_window(self, delta: int) -> None:
        TimeWindow.step(self.source.origin if self.source else "live", delta)
        self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "grouped" and self.group is not None:
            return False
        if action == "open_flag" and self.grouped:
            return False  # a group names no one delivery
        return super().check_action(action, parameters)

    def action_grouped(self) -> None:
        self.grouped = not self.grouped
        self.groups_view.display = self.grouped
        self.failures_view.display = not self.grouped
        self.table.focus()
        self.show_preview()
        self.load()

    def action_follow(self) -> None:
        self.following = not self.following
        if self._follow is not None:
            if self.following:
                self._follow.resume()
            else:
                self._follow.pause()
        if self.following:
            self.load()
        self.flagtui.notify(
            f"Following: failures read every {self.FOLLOW_S:g} s"
            if self.following
            else "Not following",
            timeout=3,
        )
        self._tick()

    def _follow_tick(self) -> None:
        if not self.write_in_flight("failures"):  # a read still under way: skip this one
            self.load()

    def action_bell(self) -> None:
        self.bell = not self.bell
        self.flagtui.notify("Bell on new failures: " + ("on" if self.bell else "off"), timeout=3)
        self._tick()

    def on_screen_suspend(self) -> None:
        super().on_screen_suspend()
        if self._follow is not None:
            self._follow.pause()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self.following and self._follow is not None:
            self._follow.resume()
        if self.answer is not None and self._seen_view != self.view:
            self.load()  # the window was changed on another screen

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        record = self.table.selected_record
        if isinstance(record, FailureGroup):
            self.app.push_screen(FailureGroupScreen(record))
        elif record is not None:
            label = self.names.get(record.integration.id, record.integration.label)
            self.app.push_screen(FailureDetailScreen(delivery_model(record.delivery), label))

    def action_open_flag(self) -> None:
        record = self.table.selected_record
        if isinstance(record, Failure):
            open_flag_of_delivery(self, delivery_model(record.delivery))


class FailureGroupScreen(FailuresScreen):
    """One group's deliveries: the same view, filtered by integration and error."""

    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="failure-group.back",
                tooltip="Back to the groups"),
    ]  # fmt: skip
