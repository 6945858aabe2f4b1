"""A segment's form (new or edit): name, description, project, constraints (the strategy
form's constraint editor, checked on the server's context fields). ctrl+r reviews: the request
checked (`client.segments.plan_*`: a refusal names the field and its limit, what was typed
kept), where the segment is used, and for each flag and environment whose strategies use it
how many of 1,000 synthetic userIds get the flag before → after (the SDKs' engine on the
segment as the server will store it, `flagtui.preview.segment_edit`), then asks; a segment in
use or a production profile asks for its name typed. Every outcome is said: done (the form
closes, the area says the event), refused (why, in the form), unknown."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalGroup
from textual.screen import Screen

from flagtui.api.edits import Edit, EditConflict
from flagtui.api.errors import InvalidArgument, NothingToSend, OutcomeUnknown
from flagtui.api.models import Segment
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.segments import SegmentSpec, SegmentStrategy
from flagtui.preview.segment_edit import SEGMENT_USERS, FlagShare, off_words, segment_edit_shares
from flagtui.tui.screens.base import IOScreenMixin, describe_error
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.constraint_editor import ConstraintEditor
from flagtui.tui.widgets.form_scroll import FormScroll
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.text import MessageLine, PlainLabel
from flagtui.typed_context import typed_context
from flagtui.words import counted

WRITE = "segment-write"
APP_NAME = "flagtui-preview"
UNKNOWN = (
    "Outcome unknown: no answer shows whether the change was applied. Not sent again from here:"
    " esc, then r reads the segments (the event log says what was recorded)."
)


def used_words(used: Sequence[SegmentStrategy], named: int = 0) -> str:
    """`used by 3 strategies of 2 flags`, then the first `named` flags and environments."""
    if not used:
        return "used by no strategy"
    where = list(dict.fromkeys(f"{u.feature_name} in {u.environment}" for u in used))
    flags = len({(u.project_id, u.feature_name) for u in used})
    said = f"used by {counted(len(used), 'strategy', 'strategies')} of {counted(flags, 'flag')}"
    if named:
        more = f" and {len(where) - named} more" if len(where) > named else ""
        said += f" ({', '.join(where[:named])}{more})"
    return said


def share_line(s: FlagShare) -> str:
    where = f"{s.project}/{s.feature} in {s.environment}"
    if s.share is None:
        return f"{where}: not previewed ({s.error})"
    was, will = s.share.before.population.enabled, s.share.after.population.enabled
    off = off_words(s)
    return f"{where}: {was:,} → {will:,} of {s.share.users:,} get it{off}"


class SegmentFormScreen(IOScreenMixin, Screen[str | None]):
    """Dismissed with what the area says once a write was sent (done or unknown), None when
    left."""

    DEFAULT_CSS = "SegmentFormScreen #segment-form { padding: 0 1; }"
    name_box = getters.query_one("#segment-name", InertInput)
    description_box = getters.query_one("#segment-description", InertInput)
    project_box = getters.query_one("#segment-project", InertInput)
    editor = getters.query_one(ConstraintEditor)
    form_error = getters.query_one("#form-error", MessageLine)
    WRITE_ACTIONS = frozenset({"review"})
    BINDINGS: ClassVar = [
        Binding("ctrl+r", "review", "Review & send", id="segment.review", priority=True,
                tooltip="Check the segment, show the request and who gets each flag it changes,"
                " then send it"),
        Binding("escape", "cancel", "Cancel", id="segment.cancel", tooltip="Back without change"),
    ]  # fmt: skip

    def __init__(self, segment: Segment | None, catalog: RolloutCatalog) -> None:
        super().__init__()
        self.segment, self.catalog = segment, catalog
        self.outcome_unknown = False

    def compose(self) -> ComposeResult:
        s = self.segment
        heading = "New segment" if s is None else f"Edit segment {s.name} (id {s.id})"
        yield FlagtuiHeader(area="segments")
        with FormScroll(id="segment-form"):
            yield PlainLabel(heading, classes="dialog-title")
            with VerticalGroup():
                yield PlainLabel("Name")
                yield InertInput(s.name if s else "", id="segment-name", compact=True)
                yield PlainLabel("Description (optional)")
                yield InertInput((s.description or "") if s else "", id="segment-description",
                                 compact=True)  # fmt: skip
                yield PlainLabel("Project (empty: every project)")
                yield InertInput((s.project or "") if s else "", id="segment-project",
                                 compact=True)  # fmt: skip
                yield ConstraintEditor(self.catalog, (s.constraints or []) if s else [])
                if s is not None:
                    yield PlainLabel("Preview context besides each userId (optional)")
                    yield InertInput(placeholder="KEY=VALUE … (sessionId, remoteAddress, a"
                                     " property)", id="preview-context", compact=True)  # fmt: skip
        yield MessageLine(id="form-error", classes="error-line")  # below the scroll: in view
        yield KeyBar()

    def on_mount(self) -> None:
        self.name_box.focus()

    def spec(self) -> SegmentSpec:
        return SegmentSpec(
            self.name_box.value.strip(),
            self.description_box.value.strip() or None,
            self.project_box.value.strip() or None,
            list(self.editor.constraints),
        )

    def action_review(self) -> None:
        if self.write_in_flight(WRITE):
            self.form_error.update("sending… (the request already sent is waiting: not again)")
            return
        if self.outcome_unknown:
            self.form_error.update(UNKNOWN)
            return
        context: dict[str, object] = {"appName": APP_NAME}
        if self.segment is not None:
            typed = self.query_one("#preview-context", InertInput).value
            try:
                context.update(typed_context(typed.split()))
            except ValueError as exc:
                self.form_error.update(f"Not sent — preview context: {exc}")
                return
            if "userId" in context:
                self.form_error.update("Not sent — preview context: each synthetic user has its"
                                       " own userId")  # fmt: skip
                return
        self.form_error.update("checking…")
        self.review(self.spec(), context)

    @work(exclusive=True, group="segment-review", exit_on_error=False)
    async def review(self, spec: SegmentSpec, context: dict[str, object]) -> None:
        client = self.flagtui.client
        projects = [p.id for p in await client.projects.list()]
        segments = client.segments
        try:
            if self.segment is None:
                edit = segments.plan_create(spec, self.catalog, projects)
            else:
                edit = segments.plan_edit(self.segment, spec, self.catalog, projects)
        except InvalidArgument as exc:
            self.form_error.update(f"Not sent — {exc}")
            return
        except NothingToSend:
            self.form_error.update("Nothing changed: no request to send.")
            return
        if self.segment is None:
            self.form_error.update("")
            self.ask(edit, [], Text("A new segment: no flag uses it yet.\n"))
            return
        self.form_error.update("Previewing every flag it changes with the SDKs' engine…")
        used = await segments.used_by(self.segment.id)
        shares = await self.previewed(used, edit.plan.body["constraints"], context)
        lines = [share_line(s) for s in shares] or ["no flag uses it: no one's flags change"]
        extra = {k: v for k, v in context.items() if k != "appName"} or "none"
        said = f"Who gets each flag ({SEGMENT_USERS:,} synthetic userIds, context {extra}),"
        said += " before → after:\n"
        self.form_error.update("")
        self.ask(edit, used, Text(said + "\n".join(lines) + "\n"))

    async def previewed(
        self,
        used: Sequence[SegmentStrategy],
        constraints: list[dict[str, object]],
        context: dict[str, object],
    ) -> list[FlagShare]:
        assert self.segment is not None
        client = self.flagtui.client
        keys = sorted({(u.project_id, u.feature_name) for u in used})
        flags = await asyncio.gather(*(client.features.get(p, f) for p, f in keys))
        parents = sorted({(p, d.feature) for (p, _), f in zip(keys, flags, strict=True)
                          for d in f.dependencies or []})  # fmt: skip
        related = await asyncio.gather(*(client.features.get(p, f) for p, f in parents))
        edited = {"id": self.segment.id, "name": self.segment.name, "constraints": constraints}
        uses = [(u.project_id, u.feature_name, u.environment) for u in used]
        return await asyncio.to_thread(
            segment_edit_shares, flags, uses, await client.segments.list(), edited,
            context, related=related,
        )  # fmt: skip

    def ask(self, edit: Edit, used: Sequence[SegmentStrategy], preview: Text) -> None:
        name = str(edit.plan.body["name"])
        creating = self.segment is None
        said = f"Creates segment {name}." if creating else f"Replaces {name}: {used_words(used)}."
        body = Text.assemble(said, "\n\n", preview, "\nSends this request:\n")
        body.append_text(shown_requests([edit.plan]))
        title = f"{'Create' if creating else 'Change'} segment {name}?"

        def answered(yes: bool | None) -> None:
            if yes:
                self.send(edit)
            else:
                self.form_error.update("Not sent — cancelled; what was typed is kept")

        label = "Create" if creating else "Change"
        typed = bool(used) or self.flagtui.profile.production
        modal = (
            TypedConfirmModal(title, body, self.segment.name, confirm_label=label)
            if typed and self.segment is not None
            else ConfirmModal(title, body, confirm_label=label)
        )
        modal.add_class("review")
        self.app.push_screen(modal, answered)

    @work(exclusive=True, group=WRITE, exit_on_error=False)
    async def send(self, edit: Edit) -> None:
        segments = self.flagtui.client.segments
        self.form_error.update("sending…")
        try:
            if self.segment is None:
                made = await segments.create(edit)
                self.dismiss(f"Created {made.name} (segment-created)")
                return
            stored = await segments.send_edit(edit)
        except NothingToSend as same:
            self.form_error.update(f"Nothing sent: {same}")
            return
        except EditConflict as moved:
            self.form_error.update(f"Not sent — {moved}; esc and e opens it as it is now")
            return
        self.dismiss(f"Changed {stored.name} (segment-updated)")

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == WRITE and isinstance(error, OutcomeUnknown):
            self.outcome_unknown = True
            self.form_error.update(f"{UNKNOWN}\n{describe_error(error)}")
        elif group in (WRITE, "segment-review"):
            self.form_error.update(f"Not applied — {describe_error(error)}")
        super().io_failed(group, error)

    def action_cancel(self) -> None:
        if self.write_in_flight(WRITE):
            return
        self.dismiss("Outcome unknown — r reads the segments" if self.outcome_unknown else None)
