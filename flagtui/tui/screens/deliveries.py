"""Deliveries of one integration (operation 2), a page of 50 at a time, failed-only on `f`;
Enter opens one delivery: the event that triggered it and what the integration reported. URLs
in what the integration reported are masked (masking.py); `v` reveals them for that delivery."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from flagtui.api.models import Addon, IntegrationEvent
from flagtui.tui.format import time_width, when
from flagtui.tui.masking import mask_text, mask_urls
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.event_detail import event_text, pretty, section
from flagtui.tui.widgets.table import FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

PAGE_SIZE = 50
STATE_STYLES = {"success": "green", "successWithErrors": "yellow", "failed": "bold red"}
STATE_LABELS = {"successWithErrors": "w/ errors"}


def state_text(state: str) -> Text:
    return Text(STATE_LABELS.get(state, state), style=STATE_STYLES.get(state, "yellow"))


def addon_label(addon: Addon) -> str:
    return f"{addon.provider} #{addon.id}"


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def clip_middle(text: str, width: int) -> str:
    """Keeps both ends: `feature-…ment-enabled` still tells enabled from disabled."""
    if len(text) <= width:
        return text
    head = min(8, width // 2)
    return text[:head] + "…" + text[len(text) - (width - head - 1) :]


def share(free: int, *wanted: int) -> list[int]:
    """Widths for clipped columns: each gets what it wants, the last takes the rest (min 10)."""
    fixed = list(wanted)
    return [*fixed, max(10, free - sum(fixed))]


def delivery_cells(delivery: IntegrationEvent, width: int) -> list[str | Text]:
    event = delivery.event
    type_w, feature_w, details_w = share(width, *((26, 22) if width >= 80 else (20, 14)))
    return [
        when(delivery.created_at),
        state_text(delivery.state),
        clip_middle(event.type if event else "—", type_w),
        clip((event.feature_name or "") if event else "", feature_w),
        clip(mask_urls(delivery.state_details or ""), details_w),
    ]


def preview_text(delivery: IntegrationEvent | None, integration: str = "") -> Text:
    """Two lines under a deliveries table: the highlighted delivery's full state details."""
    if delivery is None:
        return Text("")
    out = Text(f"{integration} " if integration else "", style="bold")
    out.append_text(state_text(delivery.state))
    out.append(f" {mask_urls(delivery.state_details or '')}")
    message = (delivery.details or {}).get("message")
    if message:
        out.append(f"\n{mask_urls(str(message))}", style="dim")
    return out


def delivery_text(delivery: IntegrationEvent, integration: str, *, reveal: bool = False) -> Text:
    """The delivery in full, the event that triggered it included; the URLs in it masked unless
    `reveal` (the heading says which, when there is any URL to mask)."""
    out = Text()
    out.append(f"Delivery {delivery.id}", style="bold")
    out.append(f" to {integration} · {when(delivery.created_at)} · ")
    out.append_text(state_text(delivery.state))
    out.append(f"\n{delivery.state_details or '(no state details)'}\n")
    details = dict(delivery.details or {})
    section(out, "Delivery details")
    if "message" in details:
        out.append(f"message   {details.pop('message')}\n")
    if "channels" in details:
        channels = details.pop("channels")
        shown = ", ".join(channels) if isinstance(channels, list) else str(channels)
        out.append(f"channels  {shown}\n")
    if details:
        out.append(pretty(details) + "\n")
    elif not delivery.details:
        out.append("—\n")
    section(out, "Triggering event")
    out.append_text(event_text(delivery.event) if delivery.event else Text("—\n"))
    masked = mask_text(out)
    if masked is out:  # no URL in it
        return out
    note = "URLs shown in full: v masks them\n" if reveal else "URLs masked: v reveals them\n"
    return Text.assemble((note, "dim italic"), out if reveal else masked)


class DeliveryDetailScreen(AreaScreen):
    AREA = "integrations"
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="delivery.back", tooltip="Back to the list"),
        Binding("y", "copy", "Copy id", id="delivery.copy", tooltip="Copy the delivery's id"),
        Binding("v", "reveal", "Reveal URLs", id="delivery.reveal",
                tooltip="Show this delivery's URLs in full, or masked again"),
    ]  # fmt: skip

    def __init__(self, delivery: IntegrationEvent, integration: str) -> None:
        super().__init__()
        self.delivery = delivery
        self.integration = integration
        self.revealed = False  # for this delivery, while it is on screen

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            yield PlainStatic(self._text(), id="delivery")

    def _text(self) -> Text:
        return delivery_text(self.delivery, self.integration, reveal=self.revealed)

    def on_mount(self) -> None:
        self.query_one("#detail").focus()

    def redraw_times(self) -> None:
        self.query_one("#delivery", PlainStatic).update(self._text())

    def action_reveal(self) -> None:
        self.revealed = not self.revealed
        self.query_one("#delivery", PlainStatic).update(self._text())

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.delivery.id)
        self.notify(f"Copied delivery id {self.delivery.id}", timeout=3)


class DeliveriesScreen(AreaScreen):
    AREA = "integrations"
    COLUMNS: ClassVar = [
        ("time", "Time"),
        ("state", "State"),
        ("type", "Event"),
        ("feature", "Feature"),
        ("details", "Details"),
    ]
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="deliveries.back",
                tooltip="Back to the integrations"),
        Binding("enter", "open", "Open", id="deliveries.open",
                tooltip="The delivery and the event that triggered it"),
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
        title = f"{addon_label(self.addon)} · {self.addon.description or ''}"
        yield PlainStatic(title, classes="status-line", id="deliveries-title")
        yield PlainStatic("loading…", classes="status-line", id="deliveries-status")
        yield FilteredTable(ResourceTable(self.COLUMNS, id="deliveries"))
        yield PlainStatic("", classes="delivery-preview")

    def on_mount(self) -> None:
        self.query_one(ResourceTable).focus()
        self.load()

    @work(exclusive=True, group="deliveries", exit_on_error=False)
    async def load(self) -> None:
        self.query_one("#deliveries-status", Static).update(f"loading page {self.page + 1}…")
        self.deliveries = await self.flagtui.client.list_integration_events(
            self.addon.id, limit=PAGE_SIZE, offset=self.page * PAGE_SIZE
        )
        self.show()

    def show(self) -> None:
        shown = [d for d in self.deliveries if d.failed or not self.failed_only]
        # Time, state 11, cell padding 10 and scrollbar 1 leave the rest to three columns.
        free = self.size.width - time_width() - 22
        rows: list[Row] = [(d.id, delivery_cells(d, free)) for d in shown]
        self.query_one(ResourceTable).set_rows(rows)
        failed = sum(d.failed for d in self.deliveries)
        start = self.page * PAGE_SIZE
        span = f"{start + 1}–{start + len(self.deliveries)}" if self.deliveries else "none"
        only = " · failed only (f)" if self.failed_only else ""
        self.query_one("#deliveries-status", Static).update(
            f"page {self.page + 1} · deliveries {span} · {failed} not successful{only}"
        )

    def on_resize(self) -> None:
        if self.deliveries:
            self.show()

    def redraw_times(self) -> None:
        self.show()

    @property
    def selected(self) -> IntegrationEvent | None:
        key = self.query_one(ResourceTable).selected_key
        return next((d for d in self.deliveries if d.id == key), None)

    @on(DataTable.RowHighlighted)
    def _preview(self) -> None:
        self.query_one(".delivery-preview", Static).update(preview_text(self.selected))

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
