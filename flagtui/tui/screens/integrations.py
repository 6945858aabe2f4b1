"""Integrations (Unleash's addons): every configuration, named by description and provider, with
its failures over the time window (a count and a sparkline, from the failure source the app
chooses; `w`/`W` change the window, shared with the failures view), its events and its
parameters, secrets masked. Enter opens its deliveries (operation 2); `x` disables or enables
it."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import ClassVar

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input, Static

from flagtui.api.models import Addon, AddonList
from flagtui.masking import masked, sensitive_names
from flagtui.triage.records import IntegrationRef, labels
from flagtui.triage.source import FailureSource
from flagtui.tui.format import ago, counted, ink, moment, yes_no
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.deliveries import DeliveriesScreen
from flagtui.tui.screens.integration_switch import IntegrationSwitch
from flagtui.tui.triage_view import (
    TimeWindow,
    now_utc,
    sparkline,
    window_since,
)
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

HOUR = timedelta(hours=1)
BUCKETS = 16  # the sparkline's width: one block per sixteenth of the window
COLUMNS = [
    Column("integration", "Integration", flex=True, middle=True, head=None),
    Column("enabled", "On"),
    Column("events", "Events"),
    Column("failures", "Fails"),
    Column("trend", "Trend", min=BUCKETS),
]


def failure_cell(count: int | None) -> Text:
    """The integration's failures in the window ("…" while they are counted)."""
    if count is None:
        return Text("…", style="dim")
    return Text(str(count), style=ink("bold red", "bold") if count else ink("green", ""))


def addon_text(addon: Addon, sensitive: set[str]) -> Text:
    out = Text()
    out.append(IntegrationRef.of(addon).label, style="bold")
    out.append(f" · id {addon.id} · enabled {yes_no(addon.enabled)}\n")
    scope = ", ".join(addon.projects or ["*"])
    envs = ", ".join(addon.environments or []) or "*"
    out.append(f"projects {scope} · environments {envs}\n")
    for name, value in sorted((addon.parameters or {}).items()):
        out.append(f"  {name}: ", style="dim")
        out.append(f"{masked(name, value, sensitive)}\n")
    out.append(f"events ({len(addon.events or [])}): ", style="dim")
    out.append(", ".join(addon.events or []) or "—")
    return out


class IntegrationsScreen(AreaScreen):
    AREA = "integrations"
    READ_STATUS = "#integrations-status"
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#integrations-status", Static)
    detail = getters.query_one("#integration-detail", Static)
    WRITE_ACTIONS = frozenset({IntegrationSwitch.ACTION})
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="integrations.open",
                tooltip="The integration's deliveries, newest first"),
        Binding("w", "window(1)", "Window", key_display="w/W", id="integrations.window",
                tooltip="Count failures over the next window: 15m, 1h, 6h, 24h, 7d, all, then 15m"),
        Binding("W", "window(-1)", "Previous window", show=False, id="integrations.window-back",
                tooltip="Count failures over the previous window"),
        IntegrationSwitch.binding("integrations"),
        Binding("r", "reload", "Reload", id="integrations.reload",
                tooltip="Read the integrations and their failures again"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.integration_switch = IntegrationSwitch(self, self.switch_target, self.load)
        self.addons: AddonList | None = None
        self.source: FailureSource | None = None
        self.counts: dict[int, list[int]] = {}
        self.counted: tuple[str, datetime, datetime] | None = None  # window, from, to

    def compose_body(self) -> ComposeResult:
        yield PlainStatic("loading…", id="integrations-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="integrations"), id="integrations-list")
        yield PlainStatic("", id="integration-detail")

    def on_mount(self) -> None:
        self.source = self.flagtui.failure_source()
        focus_now(self.table)
        self.load()

    @property
    def window(self) -> str:
        return TimeWindow.name(self.source.origin if self.source else "live")

    @work(exclusive=True, group="integrations", exit_on_error=False)
    @read
    async def load(self) -> None:
        self.addons = await self.flagtui.client.integrations.list()
        self.show()
        if self.source is None:
            return
        window, until = self.window, now_utc()
        since = window_since(window, until)
        if since is None:  # all the source has
            covered = (await self.source.window(None, limit=0)).covers_since
            since = covered if covered is not None and covered < until else until - HOUR
        self.counts = await self.source.histogram(since, until, BUCKETS)
        self.counted = window, since, until
        self.show()

    def show(self) -> None:
        if self.addons is None:
            return
        in_window = self.counted is not None and self.counted[0] == self.window
        rows: list[Row] = []
        names = labels(IntegrationRef.of(addon) for addon in self.addons.addons)
        for addon in self.addons.addons:
            counts = self.counts.get(addon.id) if in_window else None
            rows.append(
                (
                    str(addon.id),
                    [
                        names[addon.id],
                        Text(yes_no(addon.enabled), style="" if addon.enabled else "dim"),
                        str(len(addon.events or [])),
                        failure_cell(None if counts is None else sum(counts)),
                        sparkline(counts, BUCKETS),
                    ],
                )
            )
        self.table.set_rows(rows, self.addons.addons)
        self.status_line.update(self.status(in_window))
        self.show_detail()

    def status(self, in_window: bool) -> str:
        assert self.addons is not None
        n = len(self.addons.addons)
        said = counted(n, "integration")
        if not in_window or self.counted is None:
            return f"{said} · counting failures ({self.window})…"
        failing = sum(1 for counts in self.counts.values() if any(counts))
        window, since, until = self.counted
        if window == "all":  # a span that grows with time: said by where it starts
            bars = f"bars from {moment(since)} to now"
        else:
            bars = "one bar: " + ago((until - since).total_seconds() / BUCKETS).removesuffix(" ago")
        return f"{said} · {failing} failing in window {self.window} (w) · {bars}"

    @on(DataTable.RowHighlighted)
    @on(Input.Changed)
    def show_detail(self) -> None:
        """The highlighted integration, also after the `/` filter changed the rows."""
        addon = self.selected
        if addon is None or self.addons is None:
            self.detail.update("")
            return
        sensitive = sensitive_names(self.addons).get(addon.provider, set())
        self.detail.update(addon_text(addon, sensitive))

    @property
    def selected(self) -> Addon | None:
        addon: Addon | None = self.table.selected_record
        return addon

    def switch_target(self) -> IntegrationRef | None:
        addon = self.selected
        return None if addon is None else IntegrationRef.of(addon)

    def redraw_times(self) -> None:
        self.show()

    def action_toggle_integration(self) -> None:
        self.integration_switch.ask()

    def action_reload(self) -> None:
        self.load()

    def action_window(self, delta: int) -> None:
        TimeWindow.step(self.source.origin if self.source else "live", delta)
        self.show()
        self.load()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self.counted is not None and self.counted[0] != self.window:
            self.load()  # the window was changed on the failures screen

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        if self.selected is not None:
            self.app.push_screen(DeliveriesScreen(self.selected))
