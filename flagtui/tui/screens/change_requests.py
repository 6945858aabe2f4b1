"""Change requests of a project (Enterprise): the list, each in detail, and delete (operation 8)
after a confirmation whose Cancel is focused."""

from __future__ import annotations

import json
from typing import ClassVar

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable

from flagtui.api.models import ChangeRequest, CreatedBy
from flagtui.tui.format import clean, counted, put, when
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.project_area import ProjectAreaScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

STATE_STYLES = {
    "Draft": "dim",
    "In review": "yellow",
    "Approved": "green",
    "Applied": "bold green",
    "Scheduled": "cyan",
    "Rejected": "red",
    "Cancelled": "dim strike",
}
COLUMNS = [
    Column("id", "ID"),
    Column("title", "Title", flex=True),
    Column("state", "State"),
    Column("env", "Env", max=11),
    Column("by", "Created by", max=14),
    Column("created", "Created"),
]


def who(person: CreatedBy | None) -> str:
    if person is None:
        return "—"
    return person.name or person.username or (f"user {person.id}" if person.id else "—")


def state_text(state: str | None) -> Text:
    return Text(clean(state or "—"), style=STATE_STYLES.get(state or "", ""))


def change_request_row(cr: ChangeRequest) -> Row:
    cells = (
        str(cr.id),
        cr.title or "",
        state_text(cr.state),
        cr.environment or "",
        who(cr.created_by),
        when(cr.created_at, date_only=True),
    )
    return str(cr.id), cells


def change_request_text(cr: ChangeRequest) -> Text:
    out = Text()
    put(out, f"#{cr.id} {cr.title or ''}\n", style="bold")
    out.append_text(state_text(cr.state))
    put(out, f" · {cr.environment or '?'} · project {cr.project or '?'}")
    put(out, f" · needs {counted(int(cr.min_approvals or 1), 'approval')}\n")
    put(out, f"created {when(cr.created_at)} by {who(cr.created_by)}\n")
    if cr.schedule:
        put(out, f"scheduled for {when(cr.schedule.scheduled_at)} ({cr.schedule.status or '?'})\n")
    put(out, "\nFeatures and changes\n", style="bold underline")
    for feature in cr.features or []:
        put(out, f"  {feature.get('name', '?')}\n", style="bold")
        for change in feature.get("changes") or []:
            payload = json.dumps(change.get("payload"), sort_keys=True, ensure_ascii=False)
            put(out, f"    • {change.get('action', '?')} {payload}\n")
    if not cr.features:
        put(out, "  —\n")
    for title, items in (("Approvals", cr.approvals), ("Rejections", cr.rejections)):
        put(out, f"\n{title}\n", style="bold underline")
        for item in items or []:
            put(out, f"  {who(item.created_by)} · {when(item.created_at)}\n")
        if not items:
            put(out, "  —\n")
    put(out, "\nComments\n", style="bold underline")
    for comment in cr.comments or []:
        put(out, f"  {who(comment.created_by)} · {when(comment.created_at)}\n", style="dim")
        put(out, f"    {comment.text}\n")
    if not cr.comments:
        put(out, "  —\n")
    return out


class ChangeRequestDetailScreen(AreaScreen):
    AREA = "change-requests"
    scroller = getters.query_one("#detail", VerticalScroll)
    record = getters.query_one("#change-request", PlainStatic)
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="cr.back", tooltip="Back to the list"),
        Binding("r", "reload", "Reload", id="cr.reload", tooltip="Read the change request again"),
    ]

    def __init__(self, project: str, cr_id: str) -> None:
        super().__init__()
        self.project = project
        self.cr_id = cr_id
        self.change_request: ChangeRequest | None = None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            yield PlainStatic(f"loading change request {self.cr_id}…", id="change-request")

    def on_mount(self) -> None:
        self.scroller.focus()
        self.load()

    @work(exclusive=True, group="change-request", exit_on_error=False)
    @read
    async def load(self) -> None:
        self.change_request = await self.flagtui.client.change_requests.get(
            self.project, self.cr_id
        )
        self.redraw_times()

    def redraw_times(self) -> None:
        if self.change_request is not None:
            text = change_request_text(self.change_request)
            self.record.update(text)

    def show_read_failure(self, group: str, error: BaseException) -> None:
        cr = self.change_request
        shown = change_request_text(cr) if cr is not None else None
        text = self.detail_after_failure(group, error, shown)
        self.record.update(text)

    def action_reload(self) -> None:
        self.load()


class ChangeRequestsScreen(ProjectAreaScreen):
    AREA = "change-requests"
    table = getters.query_one(ResourceTable)
    filtered_table = getters.query_one(FilteredTable)
    WRITE_ACTIONS = frozenset({"delete"})
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", id="crs.open", tooltip="The change request in detail"),
        Binding("d", "delete", "Delete", id="crs.delete", tooltip="Delete the change request"),
        Binding("r", "reload", "Reload", id="crs.reload", tooltip="Read the list again"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.change_requests: list[ChangeRequest] = []

    def compose_project_body(self) -> ComposeResult:
        yield FilteredTable(ResourceTable(COLUMNS, id="change-requests"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load_projects()

    @work(exclusive=True, group="projects", exit_on_error=False)
    @read
    async def load_projects(self) -> None:
        await self.fill_projects()

    def project_changed(self) -> None:
        self.load()

    @work(exclusive=True, group="change-requests", exit_on_error=False)
    @read
    async def load(self) -> None:
        project = self.project
        if project is None:
            return
        self.status(f"loading change requests of {project}…")
        self.change_requests = await self.flagtui.client.change_requests.list(project)
        self.show()
        n = len(self.change_requests)
        self.status(f"{counted(n, 'change request')} in {project}")

    def show(self) -> None:
        rows = [change_request_row(cr) for cr in self.change_requests]
        self.table.set_rows(rows, self.change_requests)

    def redraw_times(self) -> None:
        self.show()

    def not_supported(self) -> None:
        self.filtered_table.display = False

    def action_reload(self) -> None:
        if not self.picker.project_ids:  # the first read failed: start again from the projects
            self.load_projects()
        else:
            self.load()

    @property
    def selected(self) -> ChangeRequest | None:
        cr: ChangeRequest | None = self.table.selected_record
        return cr

    @on(DataTable.RowSelected)
    def action_open(self) -> None:
        if self.selected is not None and self.project:
            self.app.push_screen(ChangeRequestDetailScreen(self.project, str(self.selected.id)))

    def action_delete(self) -> None:
        cr, project = self.selected, self.project
        if cr is None or project is None:
            return

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending("change-request-delete"):
                self.delete(project, cr)

        body = Text.assemble(
            f"#{cr.id} {cr.title or ''}\n",
            state_text(cr.state),
            f" · {cr.environment or '?'} · project {project}\n\nThis cannot be undone.",
        )
        modal = ConfirmModal(f"Delete change request #{cr.id}?", body, confirm_label="Delete")
        self.app.push_screen(modal, answered)

    @work(exclusive=True, group="change-request-delete", exit_on_error=False)
    async def delete(self, project: str, cr: ChangeRequest) -> None:
        await self.flagtui.client.change_requests.delete(project, cr.id)
        self.notify(f"Deleted change request #{cr.id} in {project}")
        self.load()
