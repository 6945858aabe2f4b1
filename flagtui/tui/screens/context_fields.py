"""Context fields (issue 46): the server's fields with their legal values, stickiness and how
many flags use each; C creates one, e edits the selected one (`context_form`), d deletes it.

A delete reads where the field is used first and says it in the question: a field in use (or
any field on a production profile) needs its name typed, Cancel focused otherwise. Unleash
7.5.1 and 8.2.0 refuse to delete a field in use (the refusal is said); 6.10.1 deletes it and the
constraints stay. Every outcome is said in the status line: done, refused (why) or unknown.
"""

from __future__ import annotations

from typing import ClassVar

from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.api.context_fields import NO_EVALUATION_CHANGE
from flagtui.api.errors import ApiError, OutcomeUnknown
from flagtui.api.models import ContextField, ContextFieldUse
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen, describe_error
from flagtui.tui.screens.context_form import ContextFieldForm
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable
from flagtui.tui.widgets.text import PlainStatic
from flagtui.words import counted

COLUMNS = [
    Column("name", "Name", max=20),
    Column("about", "Description", flex=True),
    Column("legal", "Legal"),
    Column("sticky", "Sticky"),
    Column("used", "Used by"),
]
HINT = "C new · e edit · d delete · r reload. Legal: how many legal values (0: any value)."
DELETE = "context-delete"


def usage_text(name: str, uses: list[ContextFieldUse]) -> str:
    if not uses:
        return f"{name} is used by no strategy of a live flag."
    flags: dict[str, dict[str, list[str]]] = {}
    for u in uses:
        flags.setdefault(u.feature_name, {}).setdefault(u.environment, []).append(u.strategy_name)
    strategies = counted(len(uses), "strategy", "strategies")
    lines = [f"{name} is used by {strategies} of {counted(len(flags), 'flag')}:"]
    for feature, envs in flags.items():
        lines.append(f"  {feature}: " + "; ".join(f"{e}: {', '.join(s)}" for e, s in envs.items()))
    return "\n".join(lines)


class ContextFieldsScreen(AreaScreen):
    AREA = "context-fields"
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#context-status", PlainStatic)
    WRITE_ACTIONS = frozenset({"new", "edit", "delete", "open"})
    BINDINGS: ClassVar = [
        Binding("C", "new", "Create field", id="context.new", tooltip="Create a context field"),
        Binding("e", "edit", "Edit", id="context.edit",
                tooltip="Change the selected field's description, legal values, stickiness"),
        Binding("enter", "open", "Open", show=False, id="context.open",
                tooltip="Edit the selected field (as e)"),
        Binding("d", "delete", "Delete", id="context.delete",
                tooltip="Delete the selected field (says where it is used first)"),
        Binding("r", "reload", "Reload", id="context.reload", tooltip="Read the fields again"),
    ]  # fmt: skip

    def compose_body(self) -> ComposeResult:
        yield PlainStatic(HINT, id="context-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="context-fields"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load()

    @work(exclusive=True, group="context-fields", exit_on_error=False)
    @read
    async def load(self, said: str | None = None) -> None:
        fields = await self.flagtui.client.context_fields.list()
        rows = [
            (f.name, (f.name, f.description or "", str(len(f.legal_values)),
                      "yes" if f.stickiness else "no", counted(f.used_in_features or 0, "flag")))
            for f in fields
        ]  # fmt: skip
        self.table.set_rows(rows, fields)
        self.status_line.update(said or HINT)

    def action_reload(self) -> None:
        self.load()

    def action_open(self) -> None:
        self.action_edit()

    def _form_done(self, stored: ContextField | None) -> None:
        if stored is not None:
            self.load(f"Done: {stored.name} is on the server as shown. {NO_EVALUATION_CHANGE}")

    def action_new(self) -> None:
        self.app.push_screen(ContextFieldForm(), self._form_done)

    def action_edit(self) -> None:
        field: ContextField | None = self.table.selected_record
        if field is not None:
            self.app.push_screen(ContextFieldForm(field), self._form_done)

    def action_delete(self) -> None:
        field: ContextField | None = self.table.selected_record
        if field is None:
            return
        if self.write_in_flight(DELETE):
            self.status_line.update("Deleting… (the delete already sent is waiting for its answer)")
            return
        self.status_line.update(f"Reading where {field.name} is used…")
        self.ask_delete(field)

    @work(exclusive=True, group="context-usage", exit_on_error=False)
    async def ask_delete(self, field: ContextField) -> None:
        uses = await self.flagtui.client.context_fields.usage(field.name)
        body = usage_text(field.name, uses)
        if uses:
            body += (
                "\nUnleash 7.5.1 and 8.2.0 refuse to delete a field in use; 6.10.1 deletes it"
                " and the constraints stay, on a field it no longer lists."
            )
        body += f"\n{NO_EVALUATION_CHANGE}"
        title = f"Delete context field {field.name}?"
        self.status_line.update(HINT)

        def answered(yes: bool | None) -> None:
            if yes:
                self.send_delete(field)
            else:
                self.status_line.update(f"Not deleted: {field.name} is kept.")

        if uses or self.flagtui.profile.production:
            modal: ConfirmModal = TypedConfirmModal(title, body, field.name, confirm_label="Delete")
        else:
            modal = ConfirmModal(title, body, confirm_label="Delete")
        self.app.push_screen(modal, answered)

    @work(exclusive=True, group=DELETE, exit_on_error=False)
    async def send_delete(self, field: ContextField) -> None:
        self.status_line.update(f"Deleting {field.name}…")
        await self.flagtui.client.context_fields.delete(field.name)
        self.load(f"Done: {field.name} deleted (context-field-deleted).")

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == DELETE and isinstance(error, OutcomeUnknown):
            self.status_line.update(f"Outcome unknown: r reads the fields. {describe_error(error)}")
        elif group == DELETE and isinstance(error, ApiError):  # the server's words first
            self.status_line.update(f"Not deleted — {error.name}: {error.message}")
        elif group == DELETE:
            self.status_line.update(f"Not deleted — {describe_error(error)}")
        elif group == "context-usage":
            self.status_line.update(f"Not asked: where it is used could not be read — "
                                    f"{describe_error(error)}")  # fmt: skip
        super().io_failed(group, error)
