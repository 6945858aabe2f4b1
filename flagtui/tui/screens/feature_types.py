"""Feature types (operation 6): lifetimes after which flags become potentially stale."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Input

from flagtui.api.edits import EditConflict
from flagtui.api.errors import InvalidArgument, OutcomeUnknown
from flagtui.api.models import FeatureType
from flagtui.api.validation import lifetime_days
from flagtui.contract import MAX_LIFETIME_DAYS
from flagtui.tui.format import lifetime
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen, FlagtuiModal, describe_error
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable
from flagtui.tui.widgets.text import MessageLine, PlainLabel, PlainStatic

COLUMNS = [
    Column("id", "Id", max=24),
    Column("name", "Name", max=24),
    Column("lifetime", "Lifetime"),
    Column("about", "Description", flex=True),
]
HINT = "Lifetime: days until a flag of the type is marked potentially stale."


def parse_lifetime(text: str) -> int | None:
    """Days as a whole number, or "never" (or 0): raises InvalidArgument."""
    value = text.strip().lower()
    if value in ("never", "0"):
        return None
    if not value.isdigit():
        raise InvalidArgument(
            "lifetime", f"a whole number of days (0 to {MAX_LIFETIME_DAYS}) or never"
        )
    return lifetime_days(int(value))


class LifetimeModal(FlagtuiModal):
    """Edit one type's lifetime; a failure is shown inline and keeps the input. Closing with a
    value typed and not saved asks first (not after a send whose outcome is unknown: closing
    and re-reading is what it asks for then)."""

    days_box = getters.query_one("#lifetime", Input)
    error_line = getters.query_one("#lifetime-error", MessageLine)

    BINDINGS: ClassVar = [
        Binding("escape", "close", "Cancel", id="lifetime.cancel", tooltip="Close without change")
    ]

    def __init__(self, feature_type: FeatureType) -> None:
        super().__init__(classes="form")
        self.feature_type = feature_type
        self.outcome_unknown = False

    def compose(self) -> ComposeResult:
        t = self.feature_type
        with Vertical(classes="dialog"):
            yield PlainLabel(f"Lifetime of {t.name} ({t.id})", classes="dialog-title")
            yield PlainLabel(
                f"Days until potentially stale, or never. Now: {lifetime(t.lifetime_days)}."
            )
            yield Input(self.shown_first, id="lifetime", placeholder="days or never")
            yield MessageLine(id="lifetime-error", classes="error-line")
            yield Button("Save", id="save", variant="primary")

    @property
    def shown_first(self) -> str:
        days = self.feature_type.lifetime_days
        return "never" if not days else str(days)

    def on_mount(self) -> None:
        self.days_box.focus()

    def action_close(self) -> None:
        typed = self.days_box.value.strip() != self.shown_first
        if not typed or self.outcome_unknown or self.write_in_flight("lifetime"):
            self.dismiss(None)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(None)

        body = "The lifetime typed here has not been saved and would be lost."
        modal = ConfirmModal("Leave without saving?", body, confirm_label="Discard")
        self.app.push_screen(modal, answered)

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def save(self) -> None:
        error = self.error_line
        if self.write_in_flight("lifetime"):
            error.update("sending… (the lifetime already sent is waiting for its answer)")
            return
        try:
            days = parse_lifetime(self.days_box.value)
        except InvalidArgument as exc:
            error.update(f"Not sent — {exc}")
            return
        error.update("sending…")
        self.send(days)

    @work(exclusive=True, group="lifetime", exit_on_error=False)
    async def send(self, days: int | None, anyway: bool = False) -> None:
        shown, types = self.feature_type, self.flagtui.client.feature_types
        try:
            updated = await types.update_lifetime(shown.id, days, opened_on=shown, anyway=anyway)
        except EditConflict as moved:
            self.error_line.update(f"Not sent — {moved}")
            now, lead = moved.now, f"Someone changed the lifetime of {shown.id} since you opened it"
            typed = shown.id if self.flagtui.profile.production else None
            ask_overtaken(self.app, moved, lead, "this form on the type as it is now.", typed,
                          reload=lambda: self.run_worker(self.reopened(now), group="reload"),
                          anyway=lambda: self.send(days, anyway=True))  # fmt: skip
            return
        self.notify(f"{updated.name}: lifetime now {lifetime(updated.lifetime_days)}")
        self.dismiss(updated)

    async def reopened(self, now: FeatureType) -> None:
        self.feature_type = now
        await self.recompose()
        self.on_mount()
        self.error_line.update(f"Reloaded: {now.id}'s lifetime is {lifetime(now.lifetime_days)}.")

    def io_failed(self, group: str, error: BaseException) -> None:
        self.outcome_unknown = isinstance(error, OutcomeUnknown)
        said = (
            "Outcome unknown — close and press r to read the types before saving again"
            if isinstance(error, OutcomeUnknown)
            else "Not applied"
        )
        self.error_line.update(f"{said} — {describe_error(error)}")
        super().io_failed(group, error)


class FeatureTypesScreen(AreaScreen):
    AREA = "feature-types"
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#types-status", PlainStatic)
    WRITE_ACTIONS = frozenset({"edit", "open"})
    BINDINGS: ClassVar = [
        Binding("e", "edit", "Edit", id="types.edit",
                tooltip="Change the lifetime of the selected type"),
        Binding("enter", "open", "Open", show=False, id="types.open",
                tooltip="Change the lifetime of the selected type (as e)"),
        Binding("r", "reload", "Reload", id="types.reload", tooltip="Read the types again"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()

    def compose_body(self) -> ComposeResult:
        yield PlainStatic(HINT, id="types-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="types"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load()

    @work(exclusive=True, group="types", exit_on_error=False)
    @read
    async def load(self) -> None:
        types = await self.flagtui.client.feature_types.list()
        rows = [(t.id, (t.id, t.name, lifetime(t.lifetime_days), t.description)) for t in types]
        self.table.set_rows(rows, types)
        self.status_line.update(HINT)

    def action_reload(self) -> None:
        self.load()

    def action_open(self) -> None:
        self.action_edit()

    def action_edit(self) -> None:
        feature_type: FeatureType | None = self.table.selected_record
        if feature_type is None:
            return

        def done(updated: FeatureType | None) -> None:
            if updated is not None:
                self.load()

        self.app.push_screen(LifetimeModal(feature_type), done)
