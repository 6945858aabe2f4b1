"""Patch a feature (operation 1): a form of its metadata, or a raw JSON Patch in advanced mode.

The exact patch (only changed fields, as `replace` ops) is shown for confirmation before it is
sent. The `archived` box is not patched (a PATCH of /archived is not Unleash's archive, see
`flagtui.api.intent`): ticked, it archives the flag with Unleash's archive; unticked on an
archived flag, it revives it; each on its own, after the same question as in the detail.
Leaving with unsaved edits asks first. While it is sent the form says "sending…" and refuses
to send again. A failure is shown next to the form and keeps every input. A send that got no
answer proving its result (a timeout, the connection broke, a gateway's 502/503/504, a success
with an unexpected body) may have been applied: the form says why and offers to re-read the
feature (F5) rather than to resend. After a refusal the form re-reads the feature quietly:
whatever the outcome, what it compares the inputs with is the server's current record.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.syntax import Syntax
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Checkbox, TextArea

from flagtui.api.edits import Edit, EditConflict
from flagtui.api.errors import ApiError, InvalidArgument, NothingToSend, OutcomeUnknown
from flagtui.api.intent import check_patch_paths
from flagtui.api.models import Feature
from flagtui.api.validation import MAX_JSON_DEPTH, patch_operations
from flagtui.tui.format import counted, safe
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import IOScreenMixin, describe_error
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.screens.patch_fields import field_refusals, flag_label
from flagtui.tui.widgets.archive_confirm import archive_modal, revive_modal
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.form_scroll import FormScroll
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine, PlainLabel

OUTCOME_UNKNOWN = (
    "Outcome unknown: no answer shows whether the change was applied. "
    "Press F5 to re-read the feature before sending again."
)
SENDING = "sending…"
STILL_SENDING = "sending… (the patch already sent is waiting for its answer: not sent again)"
FLAGS = (("stale", "stale"), ("impressionData", "impression_data"), ("archived", "archived"))
PATCHED_FLAGS = FLAGS[:2]  # archived is archived or revived (`archive_change`), never patched
ON_ITS_OWN = (
    "{what} is sent on its own: untick archived to send the other changes first, or undo them."
)


class PatchFormScreen(IOScreenMixin, Screen[Feature | None]):
    simple_part = getters.query_one("#simple", Vertical)
    description_box = getters.query_one("#description", InertInput)
    type_select = getters.query_one("#type", Select)
    description_error = getters.query_one("#description-error", MessageLine)
    archived_box = getters.query_one("#archived", Checkbox)
    advanced_part = getters.query_one("#advanced", Vertical)
    raw_box = getters.query_one("#raw", TextArea)
    form_error = getters.query_one("#form-error", MessageLine)
    WRITE_ACTIONS = frozenset({"review", "reload"})
    BINDINGS: ClassVar = [
        Binding("ctrl+r", "review", "Review & send", id="patch.review",
                tooltip="Show the JSON Patch, then send it", priority=True),
        Binding("ctrl+t", "toggle_mode", "Raw JSON Patch", id="patch.advanced",
                tooltip="Switch between the form and a raw JSON Patch array", priority=True),
        Binding("f5", "reload", "Reload", id="patch.reload", priority=True,
                tooltip="Read the feature again (after a send with an unknown outcome)"),
        Binding("escape", "cancel", "Cancel", id="patch.cancel", tooltip="Back without change"),
    ]  # fmt: skip

    def __init__(self, project: str, feature: Feature, focus: str = "description") -> None:
        """`focus`: the field the cursor starts in (the palette's "Archive a flag…": archived)."""
        super().__init__()
        self.project = project
        self.feature = feature
        self.first_focus = focus
        self.advanced = False
        self.outcome_unknown = False

    def compose(self) -> ComposeResult:
        f = self.feature
        yield FlagtuiHeader(area="features")
        with FormScroll(id="patch-form"):
            yield PlainLabel(f"Patch {f.name} (project {self.project})", classes="dialog-title")
            with Vertical(id="simple"):
                yield PlainLabel("Description (text; may be empty)")
                yield InertInput(f.description or "", id="description", select_on_focus=False)
                yield MessageLine(id="description-error", classes="error-line")
                yield PlainLabel("Type (the server's feature types)")
                current = [(safe(f.type), f.type)] if f.type else []
                yield Select[str](current, value=f.type or Select.NULL, id="type", compact=True)
                yield MessageLine(id="type-error", classes="error-line")
                for wire, attr in FLAGS:
                    value = bool(getattr(f, attr))
                    yield Checkbox(flag_label(wire, value), value, id=wire, compact=True)
                    yield MessageLine(id=f"{wire}-error", classes="error-line")
            with Vertical(id="advanced"):
                yield PlainLabel('JSON Patch array, e.g. [{"op": "replace", "path": ...}]')
                yield TextArea("[]", id="raw", language="json", soft_wrap=True)
            yield MessageLine(id="form-error", classes="error-line")
        yield KeyBar()

    def on_mount(self) -> None:
        self.advanced_part.display = False
        self.query_one(f"#{self.first_focus}").focus()
        self.load_types()

    @work(exclusive=True, group="patch-types", exit_on_error=False)
    @read
    async def load_types(self) -> None:
        types = await self.flagtui.client.feature_types.list()
        select = self.type_select
        options = [(safe(t.name), t.id) for t in types]
        if self.feature.type and self.feature.type not in {t.id for t in types}:
            options.append((safe(self.feature.type), self.feature.type))
        select.set_options(options)
        if self.feature.type:
            select.value = self.feature.type

    @on(Checkbox.Changed)
    def _flag_toggled(self, event: Checkbox.Changed) -> None:
        event.checkbox.label = flag_label(event.checkbox.id or "", event.value)

    def changed_ops(self) -> list[dict[str, Any]]:
        f = self.feature
        ops: list[dict[str, Any]] = []
        description = self.description_box.raw_value
        if description != (f.description or ""):
            ops.append({"op": "replace", "path": "/description", "value": description})
        kind = self.type_select.value
        if isinstance(kind, str) and kind != f.type:
            ops.append({"op": "replace", "path": "/type", "value": kind})
        for wire, attr in PATCHED_FLAGS:
            value = self.query_one(f"#{wire}", Checkbox).value
            if value != bool(getattr(f, attr)):
                ops.append({"op": "replace", "path": f"/{wire}", "value": value})
        return ops

    def archive_change(self) -> str | None:
        """ "archive" or "revive" when the archived box differs from the flag, else None."""
        ticked = self.archived_box.value
        if ticked == self.feature.is_archived:
            return None
        return "archive" if ticked else "revive"

    def has_edits(self) -> bool:
        """Anything typed or ticked that was not sent."""
        if self.advanced and self.raw_box.text.strip() not in ("", "[]"):
            return True
        return bool(self.changed_ops()) or self.archive_change() is not None

    def raw_ops(self) -> list[dict[str, Any]]:
        """The advanced array, checked as the client checks it (raises InvalidArgument)."""
        try:
            ops = json.loads(self.raw_box.text)
        except json.JSONDecodeError as exc:
            raise InvalidArgument(
                "JSON", f"line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None
        except RecursionError:
            raise InvalidArgument("JSON", f"nested deeper than {MAX_JSON_DEPTH} levels") from None
        if not isinstance(ops, list):
            raise InvalidArgument("patch", "a JSON array of operations")
        check_patch_paths(patch_operations(ops))
        return ops

    def show_error(self, message: str) -> None:
        """The form's message line; the fields' own lines are cleared with it."""
        for line in self.query(".error-line").results(MessageLine):
            line.update("")
        self.form_error.update(message)

    def show_field_error(self, error: BaseException) -> None:
        """A refusal that names a field (`/type` in a detail's path or message, or `"type"` in
        the server's message) is also said next to that field."""
        if not isinstance(error, ApiError) or self.advanced:
            return
        for wire, reasons in field_refusals(error, ("description", "type", *(w for w, _ in FLAGS))):
            self.query_one(f"#{wire}-error", MessageLine).update(f"↑ refused: {reasons}")

    def action_toggle_mode(self) -> None:
        self.advanced = not self.advanced
        if self.advanced:
            raw = self.raw_box
            if raw.text.strip() in ("", "[]"):
                raw.text = json.dumps(self.changed_ops(), indent=2)
        self.simple_part.display = not self.advanced
        self.advanced_part.display = self.advanced
        (self.raw_box if self.advanced else self.description_box).focus()
        self.show_error("")

    def action_cancel(self) -> None:
        if not self.has_edits() or self.write_in_flight("patch"):
            self.dismiss(None)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(None)

        body = "What was typed or ticked here has not been sent and would be lost."
        modal = ConfirmModal("Leave without sending?", body, confirm_label="Discard edits")
        self.app.push_screen(modal, answered)

    def action_review(self) -> None:
        if self.write_in_flight("patch"):
            self.show_error(STILL_SENDING)
            return
        try:
            ops = self.raw_ops() if self.advanced else self.changed_ops()
        except InvalidArgument as exc:
            self.show_error(f"Not sent — {exc}")
            if exc.field == "description" and not self.advanced:
                self.description_error.update(f"↑ {exc.limit}")
            return
        change = None if self.advanced else self.archive_change()
        if change is not None:
            self.review_archive_change(change, bool(ops))
            return
        if not ops:
            self.show_error("Nothing changed: no patch to send.")
            return
        self.show_error("")
        self.plan_then_ask(ops)

    @work(exclusive=True, group="patch-plan", exit_on_error=False)
    async def plan_then_ask(self, ops: list[dict[str, Any]]) -> None:
        """Checked once by the client, shown as it is sent, made from the flag as shown."""
        features, name = self.flagtui.client.features, self.feature.name
        edit = await features.plan_patch(self.project, name, ops, opened_on=self.feature)
        text = json.dumps(edit.plan.body, indent=2)
        body = Syntax(text, "json", theme="ansi_dark", word_wrap=True)

        def answered(yes: bool | None) -> None:
            if yes and self.write_in_flight("patch"):
                self.show_error(STILL_SENDING)
            elif yes:
                self.send(edit)

        title = f"Send this JSON Patch to {name}?"
        self.app.push_screen(ConfirmModal(title, body, confirm_label="Send"), answered)

    @work(exclusive=True, group="patch", exit_on_error=False)
    async def send(self, edit: Edit, anyway: bool = False) -> None:
        self.show_error(SENDING)
        self.refresh_bindings()
        features, name = self.flagtui.client.features, self.feature.name
        try:
            updated = await features.send_patch(edit, self.project, name, anyway=anyway)
        except EditConflict as moved:
            self.show_error(f"Not sent — {moved}")
            lead = f"Someone changed {name} since this form opened"
            says = "the form on the flag as it is now (what you typed here is dropped)."
            now = moved.now
            ask_overtaken(self.app, moved, lead, says, None,
                          reload=lambda: self.run_worker(self.reopened(now), group="reload"),
                          anyway=lambda: self.send(edit, anyway=True))  # fmt: skip
            return
        self.feature = updated
        self.notify(f"{updated.name} updated ({counted(len(edit.plan.body), 'change')})")
        self.dismiss(updated)

    async def reopened(self, now: Feature) -> None:
        self.feature, self.advanced = now, False
        await self.recompose()
        self.on_mount()
        self.show_error(f"Reloaded: {now.name} as the server has it now.")

    def review_archive_change(self, change: str, with_other_edits: bool) -> None:
        if with_other_edits:
            self.show_error(f"Not sent — {ON_ITS_OWN.format(what=change.capitalize())}")
            return
        self.show_error("")
        production = self.flagtui.profile.production
        modal = (
            archive_modal(self.feature, production=production)
            if change == "archive"
            else revive_modal(self.feature)
        )

        def answered(yes: bool | None) -> None:
            if yes and self.write_in_flight("patch"):
                self.show_error(STILL_SENDING)
            elif yes:
                self.show_error(SENDING)
                self.send_archive_change(change)
                self.refresh_bindings()

        self.app.push_screen(modal, answered)

    @work(exclusive=True, group="patch", exit_on_error=False)
    async def send_archive_change(self, change: str) -> None:
        """Unleash's archive or revive; then the flag as it is now, for the detail."""
        client, name = self.flagtui.client, self.feature.name
        try:
            if change == "archive":
                await client.features.archive(self.project, name)
                self.notify(f"{name} archived: no SDK receives it any more")
            else:
                await client.features.revive(self.project, name)
                self.notify(f"{name} revived: every environment is off")
        except NothingToSend as unchanged:
            self.notify(f"Nothing sent: {unchanged}", severity="warning")
        try:
            self.dismiss(await client.features.get_or_archived(self.project, name))
        except ApiError as exc:  # the write is done: only the read after it failed
            self.notify(f"Reading {name} again failed (r reads it): {exc}", severity="warning")
            self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reload" and (not self.outcome_unknown or self.write_in_flight("patch")):
            return False
        return super().check_action(action, parameters)

    def action_reload(self) -> None:
        self.reread()

    @work(exclusive=True, group="patch-reread", exit_on_error=False)
    async def reread(self) -> None:
        """Take the server's current feature as the form's baseline; the inputs stay as typed."""
        self.show_error(f"Re-reading {self.feature.name}…")
        client = self.flagtui.client
        self.feature = await client.features.get_or_archived(self.project, self.feature.name)
        self.outcome_unknown = False
        self.refresh_bindings()
        if self.advanced:
            self.show_error("Re-read: compare the patch with the current feature before sending.")
        elif self.changed_ops() or self.archive_change():
            self.show_error("Re-read: the change was not applied; review and send it again.")
        else:
            self.show_error("Re-read: the server already has these values; nothing to send.")

    @work(exclusive=True, group="patch-baseline", exit_on_error=False)
    async def refresh_baseline(self) -> None:
        """After a refusal: the server's current record becomes the baseline, quietly (the
        refusal stays on screen, the inputs as typed)."""
        client = self.flagtui.client
        self.feature = await client.features.get_or_archived(self.project, self.feature.name)

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == "patch-baseline":
            return  # the refusal on screen matters more; the baseline stays the last one read
        if group == "patch" and isinstance(error, OutcomeUnknown):
            self.outcome_unknown = True
            self.refresh_bindings()
            self.show_error(f"{OUTCOME_UNKNOWN}\n{describe_error(error)}")
        elif group == "patch":
            self.show_error(f"Not applied — {describe_error(error)}")
            self.show_field_error(error)
            self.refresh_baseline()
        elif group == "patch-plan":
            self.show_error(f"Not sent — {describe_error(error)}")
            self.show_field_error(error)
        elif group == "patch-reread":
            self.show_error(f"Could not re-read — {describe_error(error)}")
        super().io_failed(group, error)
