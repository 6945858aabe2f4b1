"""The form of a new context field or of one being edited (issue 46), and its outcome.

Tab goes through the fields in the order they are drawn: name (a new field only), description,
legal values, stickiness, Save. Save checks what was typed (the client's checks: a refusal names
the field and its limit, every input kept), then asks showing exactly the request; an edit says
that no flag's evaluation changes (SDKs never receive context fields) and names the constraints
whose values would no longer be legal values. The outcome is said: done (the form closes), refused
(the server's words here, inputs kept), unknown (said; not sent again from here).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Checkbox, Input

from flagtui.api.context_fields import NO_EVALUATION_CHANGE
from flagtui.api.edits import Edit, EditConflict
from flagtui.api.errors import InvalidArgument, NothingToSend, OutcomeUnknown
from flagtui.api.models import ContextField, LegalValue
from flagtui.contract import CONTEXT_DESCRIPTION_MAX, LEGAL_VALUE_MAX, NAME_MAX
from flagtui.tui.screens.base import FlagtuiModal, describe_error
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.text import MessageLine, PlainLabel

WRITE = "context-write"
UNKNOWN = (
    "Outcome unknown: no answer shows whether it was applied. Not sent again from here: esc,"
    " then r reads the fields."
)


def legal_text(values: list[LegalValue]) -> str:
    return ", ".join(v.value + (f"={v.description}" if v.description else "") for v in values)


def parse_legal(text: str) -> list[LegalValue]:
    """Comma-separated VALUE or VALUE=DESCRIPTION; empty: none."""
    found = []
    for part in text.split(","):
        value, sep, description = part.strip().partition("=")
        if value or sep:
            found.append(LegalValue(value=value.strip(), description=description if sep else None))
    return found


class ContextFieldForm(FlagtuiModal):
    """Dismissed with the field as stored once sent (None: left, or outcome unknown)."""

    name_box = getters.query_one("#cf-name", Input)
    description_box = getters.query_one("#cf-description", Input)
    legal_box = getters.query_one("#cf-legal", Input)
    sticky_box = getters.query_one("#cf-sticky", Checkbox)
    error_line = getters.query_one("#cf-error", MessageLine)
    BINDINGS: ClassVar = [
        Binding("escape", "close", "Cancel", id="context-form.cancel",
                tooltip="Close without sending"),
    ]  # fmt: skip

    def __init__(self, existing: ContextField | None = None) -> None:
        super().__init__(classes="form")
        self.existing = existing
        self.outcome_unknown = False

    def compose(self) -> ComposeResult:
        f = self.existing
        title = f"Edit context field {f.name}" if f else "New context field"
        with Vertical(classes="dialog"):
            yield PlainLabel(title, classes="dialog-title")
            yield PlainLabel(f"Name: 1 to {NAME_MAX} URL-friendly characters (a-z, 0-9, -_.!~*'())")
            yield Input(f.name if f else "", id="cf-name", disabled=f is not None)
            yield PlainLabel(f"Description: at most {CONTEXT_DESCRIPTION_MAX} characters")
            yield Input((f.description or "") if f else "", id="cf-description")
            yield PlainLabel(
                f"Legal values, comma-separated, value or value=description (1 to"
                f" {LEGAL_VALUE_MAX} characters each; none: any value)"
            )
            yield Input(legal_text(f.legal_values) if f else "", id="cf-legal")
            yield Checkbox("Stickiness: offered for custom stickiness", bool(f and f.stickiness),
                           id="cf-sticky")  # fmt: skip
            yield MessageLine(id="cf-error", classes="error-line")
            yield Button("Save", id="cf-save", variant="primary")

    def on_mount(self) -> None:
        (self.description_box if self.existing else self.name_box).focus()

    def planned(self) -> Edit:
        fields = self.flagtui.client.context_fields
        description = self.description_box.value
        legal = parse_legal(self.legal_box.value)
        if self.existing is None:
            made = ContextField(name=self.name_box.value.strip(), description=description or None,
                                legal_values=legal, stickiness=self.sticky_box.value)  # fmt: skip
            return fields.plan_create(made)
        kept = self.existing.description is None and description == ""
        return fields.plan_edit(
            self.existing,
            description=self.existing.description if kept else description,
            legal_values=legal,
            stickiness=self.sticky_box.value,
        )

    @on(Input.Submitted)
    @on(Button.Pressed, "#cf-save")
    def save(self) -> None:
        if self.write_in_flight(WRITE):
            self.error_line.update("sending… (the request already sent is waiting for its answer)")
            return
        if self.outcome_unknown:
            self.error_line.update(UNKNOWN)
            return
        try:
            edit = self.planned()
        except InvalidArgument as exc:
            self.error_line.update(f"Not sent — {exc}")
            return
        except NothingToSend:
            self.error_line.update("Nothing changed: no request to send.")
            return
        self.error_line.update("reading where the field is used…" if self.existing else "")
        self.review(edit)

    @work(exclusive=True, group="context-review", exit_on_error=False)
    async def review(self, edit: Edit) -> None:
        said = Text()
        if self.existing is not None and isinstance(edit.checked, ContextField):
            legal = [v.value for v in edit.checked.legal_values]
            fields = self.flagtui.client.context_fields
            off = await fields.no_longer_legal(self.existing.name, legal)
            said.append(f"{NO_EVALUATION_CHANGE}\n")
            if off:
                said.append(f"{len(off)} constraints use values that would no longer be legal"
                            " values (SDKs evaluate them as before; Unleash refuses to save"
                            " their strategies again unchanged):\n")  # fmt: skip
            for o in off:
                said.append(f"  {o.words()}\n")
            said.append("\n")
        said.append("Sends this request:\n")
        said.append_text(shown_requests([edit.plan]))
        self.error_line.update("")
        verb = "Save" if self.existing else "Create"
        title = f"{verb} context field {edit.plan.body.get('name') or self.existing_name}?"

        def answered(yes: bool | None) -> None:
            if yes:
                self.send(edit)

        self.app.push_screen(ConfirmModal(title, said, confirm_label=verb), answered)

    @property
    def existing_name(self) -> str:
        return self.existing.name if self.existing else ""

    @work(exclusive=True, group=WRITE, exit_on_error=False)
    async def send(self, edit: Edit, anyway: bool = False) -> None:
        fields = self.flagtui.client.context_fields
        self.error_line.update("sending…")
        try:
            if self.existing is None:
                stored = await fields.create(edit.checked)
                self.notify(f"Context field {stored.name} created (context-field-created)")
            else:
                stored = await fields.send_edit(edit, anyway=anyway)
                self.notify(f"Context field {stored.name} saved (context-field-updated)")
        except NothingToSend as same:
            self.error_line.update(f"Nothing sent: {same}")
            return
        except EditConflict as moved:
            self.error_line.update(f"Not sent — {moved} Close (esc) and open it again.")
            return
        self.dismiss(stored)

    def io_failed(self, group: str, error: BaseException) -> None:
        if isinstance(error, OutcomeUnknown):
            self.outcome_unknown = True
            self.error_line.update(f"{UNKNOWN}\n{describe_error(error)}")
        else:
            self.error_line.update(f"Not applied — {describe_error(error)}")
        super().io_failed(group, error)

    def action_close(self) -> None:
        self.dismiss(None)
