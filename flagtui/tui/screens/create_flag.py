"""Create a flag from the Features area (issue 25, item 0): `C`, in the area's project.

The name is checked by the server's validation route (taken by a live or an archived flag, or
not a name Unleash takes) once typing pauses, and again before sending; the type is one of the
server's feature types (release by default). ctrl+r shows exactly the request, then sends it,
one write at a time. Done: the form closes with the new flag's name (the area opens its detail,
ready for its rollout). Refused: the server's words here, every input kept. Unknown: said, not
sent again (the flag list says whether it exists). Esc with something typed asks first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Checkbox, Input

from flagtui.api import rollout_requests, validation
from flagtui.api.errors import FlagtuiError, InvalidArgument, OutcomeUnknown
from flagtui.api.models import FeatureType
from flagtui.tui.format import safe
from flagtui.tui.screens.base import AreaScreen, IOScreenMixin, describe_error
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.form_scroll import FormScroll
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine, PlainLabel

WRITE = "create-flag"
NAME_CHECK = "create-flag-name"
PAUSE_S = 0.6  # typing paused this long: the name is checked by the server
DEFAULT_TYPE = "release"  # Unleash's own default
UNKNOWN = (
    "Outcome unknown: no answer shows whether the flag was created. Not sent again from here:"
    " esc, then r in the flag list shows whether it exists."
)


class CreateFlagScreen(IOScreenMixin, Screen[str | None]):
    """Dismissed with the new flag's name once created, None when left."""

    DEFAULT_CSS = "CreateFlagScreen #create-flag { padding: 0 1; }"
    name_box = getters.query_one("#flag-name", Input)
    name_note = getters.query_one("#flag-name-note", MessageLine)
    type_select = getters.query_one("#flag-type", Select)
    description_box = getters.query_one("#flag-description", Input)
    impressions = getters.query_one("#flag-impressions", Checkbox)
    form_error = getters.query_one("#form-error", MessageLine)
    WRITE_ACTIONS = frozenset({"review"})
    BINDINGS: ClassVar = [
        Binding("ctrl+r", "review", "Review & send", id="create.review", priority=True,
                tooltip="Check the flag, show the request, then send it"),
        Binding("escape", "cancel", "Cancel", id="create.cancel", tooltip="Back without change"),
    ]  # fmt: skip

    def __init__(self, project: str, types: list[FeatureType]) -> None:
        super().__init__()
        self.project, self.types = project, types
        self.outcome_unknown = False
        self._pause: Timer | None = None

    def compose(self) -> ComposeResult:
        offered = [(safe(t.name), t.id) for t in self.types] or [(safe(DEFAULT_TYPE), DEFAULT_TYPE)]
        default = DEFAULT_TYPE if DEFAULT_TYPE in {v for _, v in offered} else offered[0][1]
        yield FlagtuiHeader(area="features")
        with FormScroll(id="create-flag"):
            yield PlainLabel(f"New flag in project {safe(self.project)}", classes="dialog-title")
            with Vertical():
                yield PlainLabel("Name (letters, digits and - _ . ! ~ * ' ( ))")
                yield Input(id="flag-name", compact=True)
                yield MessageLine(id="flag-name-note", classes="error-line")
                yield PlainLabel("Type (the server's feature types)")
                yield Select[str](offered, value=default, id="flag-type", compact=True,
                                  allow_blank=False)  # fmt: skip
                yield PlainLabel("Description (optional)")
                yield Input(id="flag-description", compact=True)
                yield Checkbox("Impression data (SDKs emit an event per evaluation)",
                               id="flag-impressions", compact=True)  # fmt: skip
        yield MessageLine(id="form-error", classes="error-line")
        yield KeyBar()

    def on_mount(self) -> None:
        self.name_box.focus()

    # -- the name, as the server judges it -------------------------------------------------------

    @on(Input.Changed, "#flag-name")
    def _name_typed(self, event: Input.Changed) -> None:
        self.name_note.update("")
        if self._pause is not None:
            self._pause.stop()
        if event.value:
            self._pause = self.set_timer(PAUSE_S, lambda: self.check_name(event.value))

    @work(exclusive=True, group=NAME_CHECK, exit_on_error=False)
    async def check_name(self, name: str) -> None:
        try:
            await self.flagtui.client.features.check_name(self.project, name)
        except FlagtuiError as exc:
            if self.name_box.value == name:
                self.name_note.update(f"↑ {_said(exc)}")
            return
        if self.name_box.value == name:
            self.name_note.update("")

    # -- review and send -------------------------------------------------------------------------

    def action_review(self) -> None:
        if self.write_in_flight(WRITE):
            self.form_error.update("sending… (not sent again)")
            return
        if self.outcome_unknown:
            self.form_error.update(UNKNOWN)
            return
        name = self.name_box.value
        try:
            validation.flag_name(name)
        except InvalidArgument as exc:
            self.name_note.update(f"↑ {exc.limit}")
            self.form_error.update(f"Not sent — {exc}")
            return
        kind = self.type_select.value if isinstance(self.type_select.value, str) else None
        plan = rollout_requests.create_feature(
            self.project, name, type=kind, description=self.description_box.value or None,
            impression_data=self.impressions.value,
        )  # fmt: skip

        def answered(yes: bool | None) -> None:
            if yes and not self.write_in_flight(WRITE):
                self.form_error.update("sending…")
                self.send(name, kind)

        said = f"Creates {name} in project {self.project}, every environment off."
        body = Text.assemble(said, "\n\nSends this request:\n", shown_requests([plan]))
        self.app.push_screen(
            ConfirmModal(f"Create {name}?", body, confirm_label="Create"), answered
        )

    @work(exclusive=True, group=WRITE, exit_on_error=False)
    async def send(self, name: str, kind: str | None) -> None:
        created = await self.flagtui.client.features.create(
            self.project, name, type=kind, description=self.description_box.value or None,
            impression_data=self.impressions.value,
        )  # fmt: skip
        self.notify(f"Flag {created.name} created in {self.project}: every environment off")
        self.dismiss(created.name)

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == WRITE and isinstance(error, OutcomeUnknown):
            self.outcome_unknown = True
            self.form_error.update(f"{UNKNOWN}\n{describe_error(error)}")
        elif group == WRITE:
            self.form_error.update(f"Not created — {describe_error(error)}")
            if isinstance(error, FlagtuiError) and not isinstance(error, OutcomeUnknown):
                self.name_note.update(f"↑ {_said(error)}")
        super().io_failed(group, error)

    def action_cancel(self) -> None:
        typed = self.name_box.value or self.description_box.value
        if self.outcome_unknown or self.write_in_flight(WRITE) or not typed:
            self.dismiss(None)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(None)

        body = "What was typed here has not been sent and would be lost."
        self.app.push_screen(
            ConfirmModal("Leave without creating?", body, confirm_label="Discard"), answered
        )


def _said(error: FlagtuiError) -> str:
    """The server's (or the check's) reason in one line."""
    if isinstance(error, InvalidArgument):
        return error.limit
    return str(getattr(error, "message", None) or error)


async def create_flag_from(
    screen: AreaScreen, project: str | None, created: Callable[[], object]
) -> None:
    """From a list of flags: the form, with the server's feature types; once created,
    `created()` (the list reads its page again) and the new flag's detail."""
    # Here, not at the top: it loads httpx
    from flagtui.tui.screens.feature_detail import FeatureDetailScreen

    if project is None:
        screen.notify("Pick a project first (the project picker above the table).")
        return
    types = await screen.flagtui.client.feature_types.list()

    def done(name: str | None) -> None:
        if name:
            created()
            screen.app.push_screen(FeatureDetailScreen(project, name))

    screen.app.push_screen(CreateFlagScreen(project, types), done)
