"""Edit a flag's variants in one environment (issue 25, item 2): rows of name, weight (a
percentage, as Unleash's web UI shows it; empty: shares the rest), payload; one stickiness.

Ctrl+R checks the rows (`variant_rules`: the field named when wrong, nothing sent), then shows
exactly the request (`PlannedWrite.shown()`) and a preview with the SDKs' engine (the typed
userId before and after, 10,000 userIds after) in a confirmation; a production environment
says so there. One write at a time. Done: back to the detail, read again. Refused: said in
the form, every input kept. Unknown outcome: said, with F5 to re-read the stored variants.
Esc with edits asks first. Read-only profiles never open it; the client refuses too."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Button, Input

from flagtui.api import variant_rules
from flagtui.api.edits import Edit, EditConflict
from flagtui.api.errors import InvalidArgument, OutcomeUnknown
from flagtui.api.models import Feature, FeatureEnvironment, Variant
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.rollout_words import variants_text
from flagtui.tui.screens.base import IOScreenMixin, describe_error
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.screens.variant_preview import preview_text
from flagtui.tui.screens.variant_rows import (
    VariantRow,
    mark_row_refusal,
    show_row_shares,
    typed_variants,
)
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.form_scroll import FormScroll
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine, PlainLabel
from flagtui.words import is_production

GROUP = "variants-write"
OUTCOME_UNKNOWN = (
    "Outcome unknown: no answer shows whether the variants were stored. "
    "Press F5 to re-read them before sending again."
)


def _as_typed(v: Variant) -> tuple[object, ...]:
    """What the form can change of a variant (a variable one's weight is computed)."""
    fixed = v.weight if v.weight_type == "fix" else None
    return (v.name, fixed, v.payload, v.stickiness or "default")


class VariantFormScreen(IOScreenMixin, Screen[bool]):
    """Dismissed with True once a write was sent (the detail then reads the flag again)."""

    DEFAULT_CSS = """
    VariantFormScreen #variant-form { padding: 0 1; }
    VariantFormScreen #variant-top, VariantFormScreen #preview-row { height: auto; }
    VariantFormScreen #variant-top Select { width: 24; }
    VariantFormScreen #user-id { width: 30; }
    """
    BINDINGS: ClassVar = [
        Binding("ctrl+r", "review", "Review & send", id="variants.review", priority=True,
                tooltip="Check the variants, show the request and the preview, then send"),
        Binding("ctrl+n", "add_row", "Add variant", id="variants.add", priority=True,
                tooltip="Add a variant row"),
        Binding("f5", "reload", "Reload", id="variants.reload", priority=True,
                tooltip="Read the stored variants again (after a send with an unknown outcome)"),
        Binding("escape", "cancel", "Cancel", id="variants.cancel", tooltip="Back without change"),
    ]  # fmt: skip

    def __init__(
        self,
        project: str,
        feature: Feature,
        environment: FeatureEnvironment,
        variants: list[Variant],
        catalog: RolloutCatalog,
    ) -> None:
        super().__init__()
        self.project = project
        self.feature = feature
        self.environment = environment
        self.stored = variants
        self.catalog = catalog
        self.outcome_unknown = False
        self.sent = False

    @property
    def env_name(self) -> str:
        return self.environment.name

    def compose(self) -> ComposeResult:
        sticky = self.stored[0].stickiness if self.stored else None
        choices = [*variant_rules.BUILT_IN_STICKINESS]
        choices += [f.name for f in self.catalog.context_fields if f.stickiness]
        if sticky and sticky not in choices:
            choices.append(sticky)
        yield FlagtuiHeader(area="features")
        with FormScroll(id="variant-form"):
            kind = f" ({self.environment.type})" if self.environment.type else ""
            title = f"Variants of {self.feature.name} in {self.env_name}{kind}"
            yield PlainLabel(title, classes="dialog-title")
            with Horizontal(id="variant-top"):
                yield PlainLabel("Stickiness ")
                yield Select[str](
                    [(c, c) for c in choices], value=sticky or "default", id="stickiness",
                    allow_blank=False, compact=True,
                )  # fmt: skip
            yield MessageLine(id="stickiness-error", classes="error-line")
            yield PlainLabel("Name · weight % (empty: shares the rest) · payload type · value")
            for v in self.stored:
                yield VariantRow(v)
            if not self.stored:
                yield VariantRow()
            with Horizontal(id="preview-row"):
                yield PlainLabel("Preview for userId ")
                yield Input(placeholder="e.g. u-1", id="user-id", compact=True)
            yield MessageLine(id="form-error", classes="error-line")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(".v-name", Input).focus()
        self.show_shares()

    @property
    def rows(self) -> list[VariantRow]:
        return list(self.query(VariantRow).results(VariantRow))

    def stickiness(self) -> str:
        return str(self.query_one("#stickiness", Select).value)

    def typed(self) -> list[Variant]:
        return typed_variants(self.rows, self.stickiness())

    # -- shares, rows ----------------------------------------------------------------------------

    @on(Input.Changed, ".v-weight")
    def show_shares(self) -> None:
        """Each row's weight as it will be stored, when the rows add up."""
        try:
            checked = variant_rules.variants(self.typed(), self.catalog, environment=True)
        except InvalidArgument:
            checked = []
        show_row_shares(self.rows, checked)

    async def action_add_row(self) -> None:
        row = VariantRow()
        form = self.query_one("#variant-form")
        await form.mount(row, before=self.query_one("#preview-row"))  # composed: inputs exist
        row.query_one(".v-name", Input).focus()

    @on(Button.Pressed, ".v-remove")
    def remove_row(self, event: Button.Pressed) -> None:
        for row in self.rows:
            if event.button in row.query(Button).results(Button):
                row.remove()
        self.call_after_refresh(self.show_shares)

    # -- review, send, outcomes ------------------------------------------------------------------

    def show_error(self, message: str, field: str | None = None) -> None:
        """The message below the form; a refusal naming a row's field is said under it too."""
        for line in self.query(".error-line").results(MessageLine):
            line.update("")
        self.query_one("#form-error", MessageLine).update(message)
        if field is not None and field.endswith("stickiness"):
            self.query_one("#stickiness-error", MessageLine).update(f"↑ {message}")
        else:
            mark_row_refusal(self.rows, field)

    def has_edits(self) -> bool:
        try:
            typed = self.typed()
        except InvalidArgument:
            return True
        return list(map(_as_typed, typed)) != list(map(_as_typed, self.stored))

    def action_review(self) -> None:
        if self.still_sending(GROUP):
            return
        where = (self.project, self.feature.name, self.env_name)
        try:
            edit = self.flagtui.client.rollouts.plan_variants(
                *where, self.typed(), self.catalog, self.stored
            )
        except InvalidArgument as exc:
            self.show_error(f"Not sent — {exc}", exc.field)
            return
        self.show_error("Preview: evaluating with the SDKs' engine…")
        user_id = self.query_one("#user-id", Input).value.strip()
        self.ask(edit, user_id)

    @work(exclusive=True, group="variants-preview", exit_on_error=False)
    async def ask(self, edit: Edit, user_id: str) -> None:
        plan, checked = edit.plan, edit.checked
        preview = await asyncio.to_thread(
            preview_text, self.feature, self.env_name, checked, self.catalog.segments, user_id
        )
        said = f"{self.feature.name} in {self.env_name} gets these variants instead of its own."
        if self.environment.type == "production":
            said = f"{is_production(self.env_name)} {said}"
        body = Text.assemble(
            said, "\n\n", preview, "\nSends this request:\n", shown_requests([plan])
        )
        self.show_error("")

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending(GROUP):
                self.send(edit)

        title = f"Set the variants of {self.feature.name} in {self.env_name}?"
        self.app.push_screen(ConfirmModal(title, body, confirm_label="Send"), answered)

    @work(exclusive=True, group=GROUP, exit_on_error=False)
    async def send(self, edit: Edit, anyway: bool = False) -> None:
        self.show_error("sending…")
        rollouts, name = self.flagtui.client.rollouts, self.feature.name
        try:
            stored = await rollouts.send_variants(edit, self.project, name, anyway=anyway)
        except EditConflict as moved:
            self.show_error(f"Not sent — {moved}")
            lead = f"Someone changed {moved.what} in {self.env_name} since this form opened"
            says = "the form on the variants as they are now (what you typed here is dropped)."
            typed = self.env_name if self.environment.type == "production" else None
            now = moved.now
            ask_overtaken(self.app, moved, lead, says, typed,
                          reload=lambda: self.run_worker(self.reload(now), group="reload"),
                          anyway=lambda: self.send(edit, anyway=True))  # fmt: skip
            return
        self.notify(
            f"Variants of {self.feature.name} set in {self.env_name}: {variants_text(stored)}"
        )
        self.dismiss(True)

    async def reload(self, now: list[Variant]) -> None:
        self.stored = now
        await self.recompose()
        self.on_mount()
        self.show_error(f"Reloaded: stored now: {variants_text(now) or 'none'}")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reload" and (not self.outcome_unknown or self.write_in_flight(GROUP)):
            return False
        return super().check_action(action, parameters)

    def action_reload(self) -> None:
        self.reread()

    @work(exclusive=True, group="variants-reread", exit_on_error=False)
    async def reread(self) -> None:
        """The stored variants, said; the rows stay as typed."""
        stored = await self.flagtui.client.rollouts.variants(
            self.project, self.feature.name, self.env_name
        )
        self.stored, self.outcome_unknown, self.sent = stored, False, True
        self.refresh_bindings()
        self.show_error(f"Re-read: stored now: {variants_text(stored) or 'none'}")

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == GROUP and isinstance(error, OutcomeUnknown):
            self.outcome_unknown = self.sent = True
            self.refresh_bindings()
            self.show_error(f"{OUTCOME_UNKNOWN}\n{describe_error(error)}")
        elif group == GROUP:
            field = error.field if isinstance(error, InvalidArgument) else None
            self.show_error(f"Not applied — {describe_error(error)}", field)
        else:
            self.show_error(f"Failed — {describe_error(error)}")
        super().io_failed(group, error)

    def action_cancel(self) -> None:
        if not self.has_edits() or self.write_in_flight(GROUP):
            self.dismiss(self.sent)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(self.sent)

        body = "What was typed here has not been sent and would be lost."
        modal = ConfirmModal("Leave without sending?", body, confirm_label="Discard edits")
        self.app.push_screen(modal, answered)
