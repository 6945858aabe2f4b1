"""Deliveries of one integration (operation 2), a page of 50 at a time, failed-only on `f`;
Enter opens one delivery (delivery_detail.py), `o` the flag its triggering event names."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input, Static

from flagtui.api.models import Addon, IntegrationEvent
from flagtui.masking import mask_urls
from flagtui.triage.records import IntegrationRef
from flagtui.tui.details import preview_text
from flagtui.tui.format import delivery_state, when
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.delivery_detail import DeliveryDetailScreen
from flagtui.tui.screens.jump_flag import open_flag_of_delivery
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

PAGE_SIZE = 50


def addon_label(addon: Addon) -> str:
    """ "Deploy alerts (webhook)": named by description and provider, as everywhere in triage."""
    return IntegrationRef.of(addon).label


def delivery_cells(delivery: IntegrationEvent) -> list[str | Text]:
    event = delivery.event
    return [
        when(delivery.created_at),
        delivery_state(delivery.state),
        event.type if event else "—",
        (event.feature_name or "") if event else "",
        mask_urls(delivery.state_details or ""),
    ]


class DeliveriesScreen(AreaScreen):
    AREA = "integrations"
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#deliveries-status", Static)
    preview = getters.query_one(".delivery-preview", Static)
    COLUMNS: ClassVar = [
        Column("time", "Time"),
        Column("state", "State"),
        Column("type", "Event", max=26, min=20, middle=True),
        Column("feature", "Feature", max=22),
        Column("details", "Details", flex=True),
    ]
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="deliveries.back",
                tooltip="Back to the integrations"),
        Binding("enter", "open", "Open", id="deliveries.open",
                tooltip="The delivery and the event that triggered it"),
        Binding("o", "open_flag", "Open flag", id="deliveries.flag",
                tooltip="The detail of the flag the delivery's triggering event names"),
        Binding("f", "toggle_failed", "Failed", id="deliveries.failed",
                tooltip="Show only deliveries that did not fully succeed"),
        Binding("n", "page(1)", "Page", key_display="n/p", id="deliveries.next",
                tooltip="Next 50 deliveries"),
        Binding("p", "page(-1)", "Prev page", show=False, id="deliveries.prev",
                tooltip="Previous 50 deliveries"),
        Binding("r", "reload", "Reload", id="deliveries.reload", tooltip="Read the page again"),
    ]  # fmt: skip

    READ_STATUS = "#deliveries-status"

    def __init__(self, addon: Addon) -> None:
        super().__init__()
        self.addon = addon
        self.page = 0
        self.failed_only = False
        self.deliveries: list[IntegrationEvent] = []

    def compose_body(self) -> ComposeResult:
        title = f"{addon_label(self.addon)} · id {self.addon.id}"
        yield PlainStatic(title, classes="status-line", id="deliveries-title")
        yield PlainStatic("loading…", classes="status-line", id="deliveries-status")
        yield FilteredTable(ResourceTable(self.COLUMNS, id="deliveries"))
        yield PlainStatic("", classes="delivery-preview")

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load()

    @work(exclusive=True, group="deliveries", exit_on_error=False)
    @read
    async def load(self) -> None:
        self.status_line.update(f"loading page {self.page + 1}…")
        self.deliveries = await self.flagtui.client.integrations.events(
            self.addon.id, limit=PAGE_SIZE, offset=self.page * PAGE_SIZE
        )
        self.show()

    def show(self) -> None:
        shown = [d for d in self.deliveries if d.failed or not self.failed_only]
        rows: list[Row] = [(d.id, delivery_cells(d)) for d in shown]
        self.table.set_rows(rows, shown)
        failed = sum(d.failed for d in self.deliveries)
        start = self.page * PAGE_SIZE
        span = f"{start + 1}–{start + len(self.deliveries)}" if self.deliveries else "none"
        only = " · failed only (f)" if self.failed_only else ""
        self.status_line.update(
            f"page {self.page + 1} · deliveries {span} · {failed} not successful{only}"
        )

    def redraw_times(self) -> None:
        self.show()

    @property
    def selected(self) -> IntegrationEvent | None:
        delivery: IntegrationEvent | None = self.table.selected_record
        return delivery

    @on(DataTable.RowHighlighted)
    @on(Input.Changed)
    def _preview(self) -> None:
        """The highlighted delivery, also after the `/` filter changed the rows."""
        self.preview.update(preview_text(self.selected))

    def action_toggle_failed(self) -> None:
        self.failed_only = not self.failed_only
        self.show()

    def action_page(self, delta: int) -> None:
        if delta > 0 and len(self.deliveries) < PAGE_SIZE:
            self.notify("This is the last page.", timeout=3)
            return
        if self.page + delta < 0:
            return
        self.page += delta
        self.load()

    def action_reload(self) -> None:
        self.load()

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        delivery = self.selected
        if delivery is not None:
            self.app.push_screen(DeliveryDetailScreen(delivery, addon_label(self.addon)))

    def action_open_flag(self) -> None:
        open_flag_of_delivery(self, self.selected)
