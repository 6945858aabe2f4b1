"""Failures across all integrations: every delivery that did not fully succeed, newest first.

One `list_addons` request plus one `list_integration_events` request per integration (its
newest 100 deliveries, the most one request may ask for): the minimum the API allows."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from flagtui.api.models import IntegrationEvent
from flagtui.tui.details import preview_text
from flagtui.tui.format import delivery_state, when
from flagtui.tui.masking import mask_urls
from flagtui.tui.reads import bounded, read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.delivery_detail import DeliveryDetailScreen
from flagtui.tui.widgets.table import Cell, Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

WINDOW = 100
COLUMNS = [
    Column("time", "Time"),
    Column("integration", "Integration"),
    Column("state", "State"),
    Column("type", "Event", max=26, min=18, middle=True),
    Column("details", "Details", flex=True),
]


class FailureDetailScreen(DeliveryDetailScreen):
    AREA = "failures"


class FailuresScreen(AreaScreen):
    AREA = "failures"
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="failures.open",
                tooltip="The delivery and the event that triggered it"),
        Binding("r", "reload", "Reload", id="failures.reload",
                tooltip="Read every integration's deliveries again"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.failures: list[tuple[str, IntegrationEvent]] = []
        self.counted = 0

    def compose_body(self) -> ComposeResult:
        yield PlainStatic("loading…", id="failures-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="failures"))
        yield PlainStatic("", classes="delivery-preview")

    def on_mount(self) -> None:
        self.query_one(ResourceTable).focus()
        self.load()

    @work(exclusive=True, group="failures", exit_on_error=False)
    @read
    async def load(self) -> None:
        client = self.flagtui.client
        self.query_one("#failures-status", Static).update("reading integrations…")
        addons = (await client.list_addons()).addons
        pages = await bounded(
            partial(client.list_integration_events, addon.id, limit=WINDOW) for addon in addons
        )
        found = [
            (f"{addon.provider} #{addon.id}", delivery)
            for addon, page in zip(addons, pages, strict=True)
            for delivery in page
            if delivery.failed
        ]
        found.sort(key=lambda item: (item[1].created_at, item[1].id), reverse=True)
        self.failures = found
        self.counted = len(addons)
        self.show()

    def show(self) -> None:
        rows: list[Row] = []
        for integration, d in self.failures:
            event = d.event
            cells: list[Cell] = [
                when(d.created_at),
                integration,
                delivery_state(d.state),
                event.type if event else "—",
                mask_urls(d.state_details or ""),
            ]
            rows.append((f"{d.integration_id}:{d.id}", cells))
        self.query_one(ResourceTable).set_rows(rows, self.failures)
        integrations = {name for name, _ in self.failures}
        self.query_one("#failures-status", Static).update(
            f"{len(self.failures)} unsuccessful deliveries · {len(integrations)} of "
            f"{self.counted} integrations · newest {WINDOW} deliveries of each"
        )

    def redraw_times(self) -> None:
        self.show()

    def action_reload(self) -> None:
        self.load()

    @property
    def selected(self) -> tuple[str, IntegrationEvent] | None:
        failure: tuple[str, IntegrationEvent] | None = self.query_one(ResourceTable).selected_record
        return failure

    @on(DataTable.RowHighlighted)
    def _preview(self) -> None:
        integration, delivery = self.selected or ("", None)
        self.query_one(".delivery-preview", Static).update(preview_text(delivery, integration))

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        if self.selected is not None:
            integration, delivery = self.selected
            self.app.push_screen(FailureDetailScreen(delivery, integration))
