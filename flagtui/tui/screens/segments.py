"""Segments (issue 46): the server's segments (name, project, constraints in words, how many
flags use each), with create (`C`), edit (`e`, Enter) and delete (`d`). A keyless area, reached
from the command palette (ctrl+p, "Go to Segments"); the header names it while it is open.

Delete reads where the segment is used first: one strategies use is not sent (real Unleash
refuses it), the status line names them; an unused one is deleted once its name is typed.
Every outcome is said in the status line: done (the event), refused (why), unknown."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.api.errors import OutcomeUnknown
from flagtui.api.models import Segment
from flagtui.api.segments import SegmentInUse
from flagtui.rollout_words import constraints_text
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen, describe_error
from flagtui.tui.screens.segment_form import SegmentFormScreen, used_words
from flagtui.tui.widgets.confirm import TypedConfirmModal
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable
from flagtui.tui.widgets.text import PlainStatic
from flagtui.words import counted

COLUMNS = [
    Column("name", "Name", max=24),
    Column("project", "Project", max=12),
    Column("constraints", "Constraints", flex=True),
    Column("used", "Used by"),
]
HINT = "C create · e edit (previews every flag it changes) · d delete"


class SegmentsScreen(AreaScreen):
    AREA = "segments"
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#segments-status", PlainStatic)
    WRITE_ACTIONS = frozenset({"create", "edit", "open", "delete"})
    BINDINGS: ClassVar = [
        Binding("C", "create", "Create segment", id="segments.create", tooltip="Create a segment"),
        Binding("e", "edit", "Edit", id="segments.edit",
                tooltip="Change the selected segment (who gets each flag it changes shown first)"),
        Binding("enter", "open", "Open", show=False, id="segments.open",
                tooltip="Change the selected segment (as e)"),
        Binding("d", "delete", "Delete", id="segments.delete",
                tooltip="Delete the selected segment (refused while strategies use it)"),
        Binding("r", "reload", "Reload", id="segments.reload", tooltip="Read the segments again"),
    ]  # fmt: skip

    def compose_body(self) -> ComposeResult:
        yield PlainStatic("loading…", id="segments-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="segments"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load()

    @work(exclusive=True, group="segments", exit_on_error=False)
    @read
    async def load(self, said: str = HINT) -> None:
        segments = await self.flagtui.client.segments.list()
        rows = [
            (
                str(s.id),
                (
                    s.name,
                    s.project or "(all)",
                    constraints_text(s.constraints) or "(none)",
                    counted(s.used_in_features or 0, "flag"),
                ),
            )
            for s in segments
        ]
        self.table.set_rows(rows, segments)
        self.say(said, refused=said.startswith("Outcome unknown"))

    def say(self, text: str, *, refused: bool = False) -> None:
        """`refused`: a refusal or failure, shown whole (wrapped) and marked."""
        self.status_line.update(text)
        self.status_line.set_class(refused, "-failed")

    def action_reload(self) -> None:
        self.load()

    def action_open(self) -> None:
        self.action_edit()

    def _after_form(self, said: str | None) -> None:
        if said is not None:
            self.say(said, refused=said.startswith("Outcome unknown"))
            self.load(said)

    def action_create(self) -> None:
        self.open_form(None)

    def action_edit(self) -> None:
        segment: Segment | None = self.table.selected_record
        if segment is not None:
            self.open_form(segment)

    @work(exclusive=True, group="segment-form", exit_on_error=False)
    async def open_form(self, segment: Segment | None) -> None:
        """The server's catalog first (its context fields; its version decides operators)."""
        catalog = await self.flagtui.client.rollouts.catalog()
        self.app.push_screen(SegmentFormScreen(segment, catalog), self._after_form)

    def action_delete(self) -> None:
        segment: Segment | None = self.table.selected_record
        if segment is not None and not self.still_sending("segment-delete"):
            self.ask_delete(segment)

    @work(exclusive=True, group="segment-delete", exit_on_error=False)
    async def ask_delete(self, segment: Segment) -> None:
        segments = self.flagtui.client.segments
        used = await segments.used_by(segment.id)
        try:
            segments.plan_delete(segment, used)
        except SegmentInUse:
            self.say(f"Not deleted — {segment.name} is {used_words(used, 2)}; Unleash refuses to"
                     " delete a segment in use: remove it from those strategies first",
                     refused=True)  # fmt: skip
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.delete(segment)
            else:
                self.say(f"Not deleted — {segment.name}: cancelled, nothing sent")

        body = f"{segment.name} is used by no strategy. Unleash deletes it for good."
        modal = TypedConfirmModal(f"Delete segment {segment.name}?", body, segment.name,
                                  confirm_label="Delete")  # fmt: skip
        self.app.push_screen(modal, answered)

    @work(exclusive=True, group="segment-delete", exit_on_error=False)
    async def delete(self, segment: Segment) -> None:
        self.say(f"deleting {segment.name}…")
        await self.flagtui.client.segments.delete(segment)
        self.load(f"Deleted {segment.name} (segment-deleted)")

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == "segment-delete":
            if isinstance(error, OutcomeUnknown):
                said = f"Outcome unknown — {describe_error(error)}; r reads the segments"
            else:
                said = f"Not deleted — {describe_error(error)}"
            self.say(said, refused=True)
        elif group == "segment-form":
            self.say(f"Form not opened — {describe_error(error)}", refused=True)
        super().io_failed(group, error)
