"""Add a strategy to a flag in one environment, or edit one (issue 25, item 2).

The type is one the server lists (`GET /api/admin/strategies`: deprecated ones are not offered
for a new strategy; an edited strategy keeps its type), with its parameters; a gradual rollout
(flexibleRollout) has its rollout %, stickiness (default, random, or a context field the server
marks for stickiness) and groupId. Constraints on the server's context fields
(`ConstraintEditor`), segments attached by name, and the strategy's variants (`VariantRow`, as
the environment-variants form has them; they take the strategy's stickiness, as the web UI
gives them, unless they had their own).

ctrl+r checks everything against the server's catalog (`rollout_rules`: a refusal names the
field and nothing is sent), then shows exactly the request (`PlannedWrite.shown()`) and what it
does, evaluated with the SDKs' engine (`strategy_preview`) for the userIds and context typed
here and for 10,000 synthetic userIds; a production environment is said in the question. One
write at a time. The outcome is honest: done (the form closes, the detail reads the flag
again); refused (the server's words here, every input kept); unknown (said, and not resent:
read the flag in the detail first).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalGroup
from textual.screen import Screen
from textual.widgets import Button, Input, SelectionList

from flagtui.api import variant_rules
from flagtui.api.edits import Edit, EditConflict
from flagtui.api.errors import InvalidArgument, NothingToSend, OutcomeUnknown
from flagtui.api.models import Feature, FeatureEnvironment, Strategy, StrategyType, Variant
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.preview import PreviewError
from flagtui.tui.format import safe
from flagtui.tui.screens.base import IOScreenMixin, describe_error
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.screens.rollout_keys import GRADUAL
from flagtui.tui.screens.strategy_preview import (
    Outlook,
    contexts_of,
    outlook,
    outlook_text,
    proposed,
    server_notes,
)
from flagtui.tui.screens.variant_rows import VariantRow, mark_row_refusal, show_row_shares
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.constraint_editor import ConstraintEditor
from flagtui.tui.widgets.form_scroll import FormScroll
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.strategy_params import ParameterFields
from flagtui.tui.widgets.text import MessageLine, PlainLabel
from flagtui.words import is_production

WRITE = "strategy-write"
STILL_SENDING = "sending… (the request already sent is waiting for its answer: not sent again)"
UNKNOWN = (
    "Outcome unknown: no answer shows whether the change was applied. Not sent again from here:"
    " esc, then r in the detail reads the flag (its events say what was recorded)."
)


class StrategyFormScreen(IOScreenMixin, Screen[bool]):
    """Dismissed with True once a write was sent (done or unknown), False when left."""

    DEFAULT_CSS = """
    StrategyFormScreen #strategy-form { padding: 0 1; }
    StrategyFormScreen SelectionList { height: auto; max-height: 6; }
    """
    type_select = getters.query_one("#type", Select)
    title_box = getters.query_one("#title", InertInput)
    params = getters.query_one(ParameterFields)
    editor = getters.query_one(ConstraintEditor)
    segment_list = getters.query_one("#segments", SelectionList)
    form_error = getters.query_one("#form-error", MessageLine)
    WRITE_ACTIONS = frozenset({"review"})
    AUTO_FOCUS = ""  # `on_mount` focuses the title, once the form is laid out (and in view)
    BINDINGS: ClassVar = [
        Binding("ctrl+r", "review", "Review & send", id="strategy.review", priority=True,
                tooltip="Check the strategy, show the request and its preview, then send it"),
        Binding("ctrl+n", "add_variant", "Add variant", id="strategy.add-variant", priority=True,
                tooltip="Add a row to the strategy's variants"),
        Binding("escape", "cancel", "Cancel", id="strategy.cancel", tooltip="Back without change"),
    ]  # fmt: skip

    def __init__(
        self,
        project: str,
        feature: Feature,
        env: FeatureEnvironment,
        catalog: RolloutCatalog,
        existing: Strategy | None = None,
        related: list[Feature] | None = None,
    ) -> None:
        super().__init__()
        self.project, self.feature, self.env = project, feature, env
        self.catalog, self.existing, self.related = catalog, existing, related or []
        self.sent = False
        self.outcome_unknown = False
        self.untouched: dict[str, object] | None = None  # the form as opened (`has_edits`)

    @property
    def types(self) -> list[StrategyType]:
        if self.existing is not None:
            found = self.catalog.strategy_type(self.existing.name)
            return [found] if found else []
        return [t for t in self.catalog.strategy_types if not t.deprecated]

    def compose(self) -> ComposeResult:
        name, env, existing = self.feature.name, self.env.name, self.existing
        heading = (
            f"Add a strategy to {name} in {env}"
            if existing is None
            else f"Edit strategy {existing.id} of {name} in {env}"
        )
        if self.env.type == "production":
            heading += " (production)"
        kind = existing.name if existing else GRADUAL
        offered = [(safe(t.display_name or t.name), t.name) for t in self.types]
        if existing is not None and not offered:  # a type the server no longer lists: refused
            offered = [(safe(existing.name), existing.name)]  # when reviewed, naming it
        if kind not in {t.name for t in self.types}:
            kind = offered[0][1] if offered else kind
        yield FlagtuiHeader(area="features")
        with FormScroll(id="strategy-form"):
            yield PlainLabel(heading, classes="dialog-title")
            with VerticalGroup():
                yield PlainLabel("Type (the server's strategy types)")
                yield Select[str](offered, value=kind, id="type", compact=True, allow_blank=False,
                                  disabled=existing is not None)  # fmt: skip
                yield PlainLabel("Title (optional)")
                yield InertInput(
                    (existing.title or "") if existing else "", id="title", compact=True
                )
                yield ParameterFields(self.catalog, name, existing)
                given = (existing.constraints or []) if existing else []
                yield ConstraintEditor(self.catalog, given, reread=self.reread_fields)
                yield PlainLabel("Segments (space ticks or unticks)")
                attached = {int(i) for i in (existing.segments or [])} if existing else set()
                yield SelectionList[int](
                    *((safe(s.name), s.id, s.id in attached) for s in self.catalog.segments),
                    id="segments",
                )
                yield PlainLabel(
                    "Variants (ctrl+n adds one): name · weight % (empty: shares the rest)"
                    " · payload type · value"
                )
                with VerticalGroup(id="strategy-variants"):
                    for variant in (existing.variants or []) if existing else []:
                        yield VariantRow(variant)
                yield PlainLabel("Preview for userIds (comma-separated)")
                yield Input("u-1, u-2", id="preview-users", compact=True)
                yield PlainLabel("Preview context (KEY=VALUE, space-separated; optional)")
                yield Input(placeholder="KEY=VALUE … (sessionId, remoteAddress, properties)",
                            id="preview-context", compact=True)  # fmt: skip
        yield MessageLine(id="form-error", classes="error-line")  # below the scroll: in view
        yield KeyBar()

    def on_mount(self) -> None:
        kind = self.type_select.value
        self.params.show_type(self.catalog.strategy_type(kind) if isinstance(kind, str) else None)
        self.title_box.focus()
        self.show_variant_shares()
        self.call_after_refresh(self.remember_untouched)

    async def reread_fields(self) -> RolloutCatalog:
        """The catalog with the server's context fields read again (one created since)."""
        fields = await self.flagtui.client.context_fields.list()
        self.catalog = replace(self.catalog, context_fields=fields)
        return self.catalog

    def remember_untouched(self) -> None:
        self.untouched = self.typed()

    @on(Select.Changed, "#type")
    def _type_picked(self, event: Select.Changed) -> None:
        kind = event.value
        self.params.show_type(self.catalog.strategy_type(kind) if isinstance(kind, str) else None)

    # -- what was typed, as the strategy to send -------------------------------------------------

    def draft(self) -> Strategy:
        """The form as a strategy (unchecked); raises InvalidArgument naming a field."""
        kind = self.type_select.value
        if not isinstance(kind, str):
            raise InvalidArgument("name", "pick a strategy type")
        pending = self.editor.pending()
        if pending:
            said = f"{pending!r} was typed but not added: Add constraint, or clear it"
            raise InvalidArgument("constraint", said)
        base = self.existing
        return Strategy(
            id=base.id if base else None,
            name=kind,
            title=self.title_box.raw_value or None,
            disabled=base.disabled if base else None,
            parameters=self.params.values(kind),
            constraints=list(self.editor.constraints),
            segments=list(self.segment_list.selected),
            variants=self.typed_variants(),
        )

    @property
    def variant_rows(self) -> list[VariantRow]:
        return list(self.query(VariantRow).results(VariantRow))

    def typed_variants(self) -> list[Variant]:
        """The rows as variants; without a stickiness of their own they take the strategy's."""
        kept = self.existing.variants if self.existing else None
        sticky = kept[0].stickiness if kept else None
        return [
            row.typed(i).model_copy(update={"stickiness": sticky})
            for i, row in enumerate(self.variant_rows)
        ]

    # -- the variants' rows ------------------------------------------------------------------------

    async def action_add_variant(self) -> None:
        row = VariantRow()
        await self.query_one("#strategy-variants").mount(row)  # composed: its inputs exist
        row.query_one(".v-name", Input).focus()

    @on(Button.Pressed, ".v-remove")
    def _remove_variant(self, event: Button.Pressed) -> None:
        for row in self.variant_rows:
            if event.button in row.query(Button).results(Button):
                row.remove()
        self.call_after_refresh(self.show_variant_shares)

    @on(Input.Changed, ".v-weight")
    def show_variant_shares(self) -> None:
        """Each variant's weight as it will be stored, once the rows add up."""
        try:
            sticky = str(self.params.values(GRADUAL).get("stickiness") or "default")
            checked = variant_rules.variants(
                self.typed_variants(), self.catalog, default_stickiness=sticky
            )
        except InvalidArgument:
            checked = []
        show_row_shares(self.variant_rows, checked)

    def checked(self) -> tuple[Strategy, Edit]:
        """The draft checked once, as the request to show and send, made from `existing`."""
        draft, rollouts = self.draft(), self.flagtui.client.rollouts
        where = (self.project, self.feature.name, self.env.name)
        if self.existing is None:
            edit = rollouts.plan_add(*where, draft, self.catalog)
        else:
            edit = rollouts.plan_update(*where, draft, self.catalog, self.existing)
        return edit.checked, edit

    def typed(self) -> dict[str, object] | None:
        """What the form holds now (None: something it cannot make a strategy of yet)."""
        try:
            return self.draft().model_dump()
        except InvalidArgument:
            return None

    def has_edits(self) -> bool:
        return self.typed() != self.untouched

    # -- review, preview and send ----------------------------------------------------------------

    def action_review(self) -> None:
        if self.write_in_flight(WRITE):
            self.form_error.update(STILL_SENDING)
            return
        if self.outcome_unknown:
            self.form_error.update(UNKNOWN)
            return
        try:
            strategy, edit = self.checked()
            contexts = contexts_of(
                self.query_one("#preview-users", Input).value,
                self.query_one("#preview-context", Input).value,
            )
        except InvalidArgument as exc:
            self.params.show_refusal(exc)
            mark_row_refusal(self.variant_rows, exc.field)
            self.form_error.update(f"Not sent — {exc}")
            return
        except NothingToSend:
            self.form_error.update("Nothing changed: no request to send.")
            return
        self.params.show_refusal(None)
        mark_row_refusal(self.variant_rows, None)
        self.form_error.update("Previewing with the SDKs' engine…")
        self.preview_then_ask(strategy, edit, contexts)

    @work(exclusive=True, group="strategy-preview", exit_on_error=False)
    async def preview_then_ask(
        self, strategy: Strategy, edit: Edit, contexts: list[dict[str, object]]
    ) -> None:
        seen: Outlook | PreviewError
        try:
            after = proposed(self.feature, self.env.name, strategy)  # as Unleash will store it
            seen = await asyncio.to_thread(
                outlook, self.feature, after, self.env.name, contexts,
                self.catalog.segments, self.related,
            )  # fmt: skip
        except PreviewError as exc:
            seen = exc
        client, where = self.flagtui.client, (self.project, self.env.name, self.feature.name)
        server = [] if isinstance(seen, PreviewError) else await server_notes(client, *where, seen)
        self.form_error.update("")
        self.ask(edit, outlook_text(seen, self.env.name, server))

    def ask(self, edit: Edit, preview: Text) -> None:
        env, name, plan = self.env.name, self.feature.name, edit.plan
        adding = self.existing is None
        said = (
            f"Adds a {plan.body['name']} strategy to {name} in {env}, after the others."
            if adding
            else f"Replaces strategy {self.existing.id if self.existing else ''} of {name}"
            f" in {env} with what is shown."
        )
        if self.env.type == "production":
            said = f"{is_production(env)} {said}"
        if not self.env.enabled:
            said += f" {env} is off: SDKs get off there until it is switched on (t)."
        body = Text.assemble(said, "\n\n", preview, "\nSends this request:\n")
        body.append_text(shown_requests([plan]))
        title = f"{'Add strategy to' if adding else 'Update strategy of'} {name} in {env}?"

        def answered(yes: bool | None) -> None:
            if yes and self.write_in_flight(WRITE):
                self.form_error.update(STILL_SENDING)
            elif yes:
                self.send(edit)

        label = "Add" if adding else "Update"
        modal = ConfirmModal(title, body, confirm_label=label)
        modal.add_class("review")
        self.app.push_screen(modal, answered)

    @work(exclusive=True, group=WRITE, exit_on_error=False)
    async def send(self, edit: Edit, anyway: bool = False) -> None:
        rollouts, name, env = self.flagtui.client.rollouts, self.feature.name, self.env.name
        self.form_error.update("sending…")
        try:
            stored = await rollouts.send(edit, self.project, name, anyway=anyway)
        except NothingToSend as same:
            self.form_error.update(f"Nothing sent: {same}")
            return
        except EditConflict as moved:
            self.overtaken(edit, moved)
            return
        if self.existing is None:
            self.notify(f"Strategy {stored.id} ({stored.name}) added to {name} in {env}")
        else:
            self.notify(f"Strategy {stored.id} of {name} updated in {env}")
        self.sent = True
        self.dismiss(True)

    def overtaken(self, edit: Edit, moved: EditConflict) -> None:
        self.form_error.update(f"Not sent — {moved}")
        lead = f"Someone changed {moved.what} in {self.env.name} since this form opened"
        reload_says = "the form on the strategy as it is now (what you typed here is dropped)."
        typed = self.env.name if self.env.type == "production" else None
        ask_overtaken(self.app, moved, lead, reload_says, typed,
                      reload=lambda: self.run_worker(self.reload(moved.now), group="reload"),
                      anyway=lambda: self.send(edit, anyway=True))  # fmt: skip

    async def reload(self, now: Strategy) -> None:
        self.existing = now
        await self.recompose()
        self.on_mount()  # the form as composed on `existing`, as when it opened
        self.form_error.update(f"Reloaded: strategy {now.id} as the server has it now.")

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == WRITE and isinstance(error, OutcomeUnknown):
            self.outcome_unknown = self.sent = True
            self.form_error.update(f"{UNKNOWN}\n{describe_error(error)}")
        elif group == WRITE:
            self.form_error.update(f"Not applied — {describe_error(error)}")
            if isinstance(error, InvalidArgument):
                self.params.show_refusal(error)
                mark_row_refusal(self.variant_rows, error.field)
        super().io_failed(group, error)

    def action_cancel(self) -> None:
        if self.sent or self.write_in_flight(WRITE) or not self.has_edits():
            self.dismiss(self.sent)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(False)

        body = "What was typed here has not been sent and would be lost."
        modal = ConfirmModal("Leave without sending?", body, confirm_label="Discard edits")
        self.app.push_screen(modal, answered)
