"""The stale-flag view: a project's stale and potentially stale flags, oldest first, with what
the monthly clean-up weighs (age against the type's lifetime, the creator, when SDKs last saw
it per environment, where it is on in production). Read through `flagtui.fleet.stale`, as
`flagtui feature stale` is. Enter opens the flag's detail.

`A` archives the flags shown, the `/` filter applied (never one it hides), as the features
table's marked flags are (`client.bulk`): the plan first (each flag and its step, the filter
said in its question; a flag on in production asks for that environment's name typed), then
each flag's outcome, and the list read again."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.api.bulk_changes import Change
from flagtui.api.edits import EditConflict
from flagtui.fleet.stale import read_stale
from flagtui.tui.format import counted, lifetime, moment, when
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.bulk_screens import (
    BulkResult,
    ask_plan_overtaken,
    plan_confirmation,
    plan_shares,
)
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable
from flagtui.tui.widgets.text import PlainStatic

ARCHIVE_GROUP = "stale-archive"  # the write's worker group: one at a time
COLUMNS = [
    Column("name", "Name", max=32, middle=True),
    Column("state", "State"),
    Column("age", "Age"),
    Column("type", "Type", max=14),
    Column("lifetime", "Lifetime"),
    Column("creator", "Created by", max=18),
    Column("prod", "On in production", max=20),
    Column("seen", "Last seen", flex=True),
]


def last_seen(row: dict[str, Any]) -> str:
    """Per environment: "production 2026-11-02 10:14 UTC, development never"."""
    seen = row["lastSeenIn"]
    if not seen:
        return "never" if row["lastSeenAt"] is None else when(_parse(row["lastSeenAt"]))
    return ", ".join(f"{env} {when(_parse(at)) if at else 'never'}" for env, at in seen.items())


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text)


def cells(row: dict[str, Any]) -> tuple[str, ...]:
    age = "?" if row["ageDays"] is None else counted(row["ageDays"], "day")
    return (
        row["name"],
        row["state"],
        age,
        row["type"] or "",
        lifetime(row["lifetimeDays"]),
        row["createdBy"] or "unknown",
        ", ".join(row["onInProduction"]) or "no",
        last_seen(row),
    )


class StaleFlagsScreen(AreaScreen):
    AREA = "features"
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#stale-status", PlainStatic)
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="stale.back", tooltip="Back"),
        Binding("enter", "open", "Open", id="stale.open", tooltip="The selected flag's detail"),
        Binding("r", "reload", "Reload", id="stale.reload", tooltip="Read the stale flags again"),
        Binding("A", "archive_listed", "Archive", id="stale.archive",
                tooltip="Archive the flags the filter shows: the plan first, then each outcome"),
    ]  # fmt: skip
    WRITE_ACTIONS = frozenset({"archive_listed"})

    def __init__(self, project: str) -> None:
        super().__init__()
        self.project = project
        self.listed: list[str] = []  # the flags read (the filter shows some or all of them)

    def compose_body(self) -> ComposeResult:
        yield PlainStatic(
            f"Stale flags of project {self.project}: reading…",
            id="stale-status",
            classes="status-line",
        )
        yield FilteredTable(ResourceTable(COLUMNS, id="stale"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load()

    @work(exclusive=True, group="stale", exit_on_error=False)
    @read
    async def load(self) -> None:
        stale = await read_stale(self.flagtui.client, self.project)
        self.table.set_rows([(row["name"], cells(row)) for row in stale.rows], stale.rows)
        self.listed = [row["name"] for row in stale.rows]
        shown = counted(len(stale.rows), "stale flag")
        cut = "" if stale.complete else f" (the oldest of {stale.total})"
        read_at = moment(datetime.now(UTC))
        self.status_line.update(
            f"{shown}{cut} of project {self.project}, oldest first; read at {read_at}"
        )

    def action_reload(self) -> None:
        self.load()

    def action_open(self) -> None:
        row: dict[str, Any] | None = self.table.selected_record
        if row is not None:
            self.app.push_screen(FeatureDetailScreen(self.project, row["name"]))

    def action_archive_listed(self) -> None:
        names, needle = self.table.visible_keys, self.table.filter_text
        scope = f"The {counted(len(names), 'stale flag')} shown"
        if needle:
            scope += f", filtered by {needle!r} ({len(names)} of the {len(self.listed)} listed)"
        if not names:
            self.flagtui.notify(f"{scope}: nothing to archive.", severity="warning")
        elif not self.still_sending(ARCHIVE_GROUP):
            self.run_worker(self.plan_archive(names, f"{scope}; no other is in the plan."),
                            group="stale-plan", exclusive=True, exit_on_error=False)  # fmt: skip

    async def plan_archive(self, names: list[str], scope: str) -> None:
        client = self.flagtui.client
        plan = await client.bulk.plan(self.project, Change("archive"), names)
        if not plan.to_send:
            self.app.push_screen(BulkResult.unsent(plan))
            return

        async def send(anyway: bool = False) -> None:
            try:
                outcomes = await client.bulk.send(plan, anyway=anyway)
            except EditConflict as moved:
                ask_plan_overtaken(self.app, plan, moved, self.action_archive_listed,
                                   lambda: answered(True, anyway=True))  # fmt: skip
                return
            self.app.push_screen(BulkResult(plan, outcomes))
            self.load()

        def answered(yes: bool | None, anyway: bool = False) -> None:
            if yes and not self.still_sending(ARCHIVE_GROUP):
                self.run_worker(send(anyway), group=ARCHIVE_GROUP, exclusive=True,
                                exit_on_error=False)  # fmt: skip

        shares = await plan_shares(client, plan)
        confirmation = plan_confirmation(plan, "stale flags shown", scope, shares)
        self.app.push_screen(confirmation, answered)
