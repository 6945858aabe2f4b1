"""Integrations (Unleash's addons): every configuration with its recent failures, its events and
its parameters, secrets masked. Enter opens its deliveries (operation 2)."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from flagtui.api.models import Addon, AddonList
from flagtui.tui.format import yes_no
from flagtui.tui.masking import masked
from flagtui.tui.reads import bounded, read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.deliveries import DeliveriesScreen
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

FAILURE_WINDOW = 50  # failures are counted on the first page of deliveries
COLUMNS = [
    Column("id", "ID"),
    Column("provider", "Provider"),
    Column("description", "Description", flex=True),
    Column("enabled", "On"),
    Column("events", "Events"),
    Column("failures", f"Fail/{FAILURE_WINDOW}"),
]


def sensitive_names(addons: AddonList) -> dict[str, set[str]]:
    """Parameter names each provider marks sensitive."""
    return {
        p.name: {spec.name for spec in p.parameters or [] if spec.sensitive}
        for p in addons.providers
    }


def failure_cell(count: int | None) -> Text:
    if count is None:
        return Text("…", style="dim")
    return Text(str(count), style="bold red" if count else "green")


def addon_text(addon: Addon, sensitive: set[str]) -> Text:
    out = Text()
    out.append(f"{addon.provider} #{addon.id}", style="bold")
    out.append(f" · {addon.description or ''} · enabled {yes_no(addon.enabled)}\n")
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
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="integrations.open",
                tooltip="The integration's deliveries, newest first"),
        Binding("r", "reload", "Reload", id="integrations.reload",
                tooltip="Read the integrations and their failures again"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.addons: AddonList | None = None
        self.failures: dict[int, int] = {}

    def compose_body(self) -> ComposeResult:
        yield PlainStatic("loading…", id="integrations-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="integrations"), id="integrations-list")
        yield PlainStatic("", id="integration-detail")

    def on_mount(self) -> None:
        self.query_one(ResourceTable).focus()
        self.load()

    @work(exclusive=True, group="integrations", exit_on_error=False)
    @read
    async def load(self) -> None:
        client = self.flagtui.client
        self.addons = await client.list_addons()
        self.failures = {}
        self.show()
        pages = await bounded(
            partial(client.list_integration_events, addon.id, limit=FAILURE_WINDOW)
            for addon in self.addons.addons
        )
        self.failures = {
            addon.id: sum(d.failed for d in page)
            for addon, page in zip(self.addons.addons, pages, strict=True)
        }
        self.show()

    def show(self) -> None:
        if self.addons is None:
            return
        rows: list[Row] = [
            (
                str(a.id),
                [
                    str(a.id),
                    a.provider,
                    a.description or "",
                    Text(yes_no(a.enabled), style="" if a.enabled else "dim"),
                    str(len(a.events or [])),
                    failure_cell(self.failures.get(a.id)),
                ],
            )
            for a in self.addons.addons
        ]
        self.query_one(ResourceTable).set_rows(rows, self.addons.addons)
        failing = sum(1 for count in self.failures.values() if count)
        counted = f" · {failing} with recent failures" if self.failures else " · counting failures…"
        n = len(self.addons.addons)
        self.query_one("#integrations-status", Static).update(
            f"{n} integration{'s' if n != 1 else ''}{counted}"
        )
        self.show_detail()

    @on(DataTable.RowHighlighted)
    def show_detail(self) -> None:
        addon = self.selected
        if addon is None or self.addons is None:
            return
        sensitive = sensitive_names(self.addons).get(addon.provider, set())
        self.query_one("#integration-detail", Static).update(addon_text(addon, sensitive))

    @property
    def selected(self) -> Addon | None:
        addon: Addon | None = self.query_one(ResourceTable).selected_record
        return addon

    def action_reload(self) -> None:
        self.load()

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        if self.selected is not None:
            self.app.push_screen(DeliveriesScreen(self.selected))
