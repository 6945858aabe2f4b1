"""The API tokens area's dialogs: the create form (`TokenFormModal`) and the one view of a
new token's secret (`SecretModal`).

The form checks its inputs as the client does (`client.api_tokens.body`), shows the exact
request and asks (the profile's name typed on a production profile), then sends it once.
Refused: the server's words under the form, every input kept. Unknown: said, not sent again.
The secret is shown once, in `SecretModal` (`y` copies it with OSC 52, which reaches the
terminal over SSH); once it is closed no screen holds it.
"""

from __future__ import annotations

import json
from typing import ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input

from flagtui.api.api_tokens import ApiToken
from flagtui.api.errors import InvalidArgument, OutcomeUnknown
from flagtui.tui.screens.base import FlagtuiModal, describe_error
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine, PlainLabel, PlainStatic

WRITE = "token-create"
UNKNOWN = (
    "Outcome unknown: no answer shows whether the token was made. Not sent again from here:"
    " esc, then r in the list shows whether it exists."
)


class TokenFormModal(FlagtuiModal):
    """Dismissed with the created token (its secret in it), or None."""

    name_box = getters.query_one("#token-name", Input)
    type_select = getters.query_one("#token-type", Select)
    env_box = getters.query_one("#token-env", Input)
    projects_box = getters.query_one("#token-projects", Input)
    error_line = getters.query_one("#token-error", MessageLine)
    WRITE_ACTIONS = frozenset({"review"})
    BINDINGS: ClassVar = [
        Binding("ctrl+r", "review", "Review & send", id="token-form.review", priority=True,
                tooltip="Check the token, show the request, then send it"),
        Binding("escape", "close", "Cancel", id="token-form.cancel", tooltip="Back without change"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__(classes="form")
        self.outcome_unknown = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel("New API token", classes="dialog-title")
            yield PlainLabel("Name")
            yield Input(id="token-name", compact=True)
            yield PlainLabel("Type")
            kinds = [("client (backend SDKs)", "client"), ("frontend", "frontend")]
            yield Select[str](kinds, value="client", id="token-type", compact=True,
                              allow_blank=False)  # fmt: skip
            yield PlainLabel("Environment")
            yield Input("development", id="token-env", compact=True)
            yield PlainLabel("Projects (comma separated; * for every project)")
            yield Input("*", id="token-projects", compact=True)
            yield MessageLine(id="token-error", classes="error-line")
            yield Button("Review & send (ctrl+r)", id="token-review", variant="primary")

    def on_mount(self) -> None:
        self.name_box.focus()

    @on(Button.Pressed, "#token-review")
    @on(Input.Submitted)
    def action_review(self) -> None:
        if self.write_in_flight(WRITE):
            self.error_line.update("sending… (not sent again)")
            return
        if self.outcome_unknown:
            self.error_line.update(UNKNOWN)
            return
        kind = self.type_select.value if isinstance(self.type_select.value, str) else "client"
        projects = [p.strip() for p in self.projects_box.value.split(",")]
        try:
            body = self.flagtui.client.api_tokens.body(
                self.name_box.value, kind, self.env_box.value.strip(), projects
            )
        except InvalidArgument as exc:
            self.error_line.update(f"Not sent — {exc}")
            return
        profile = self.flagtui.profile

        def answered(yes: bool | None) -> None:
            if yes and not self.write_in_flight(WRITE):
                self.error_line.update("sending…")
                self.send(body)

        request = f"POST /api/admin/api-tokens\n{json.dumps(body, ensure_ascii=False)}"
        said = f"Creates a {kind} token for {body['environment']}. Sends this request:\n{request}"
        title = f"Create API token {body['tokenName']}?"
        modal = (
            TypedConfirmModal(title, f"{said}\n\nProduction profile.", profile.name,
                              confirm_label="Create")
            if profile.production
            else ConfirmModal(title, said, confirm_label="Create")
        )  # fmt: skip
        self.app.push_screen(modal, answered)

    @work(exclusive=True, group=WRITE, exit_on_error=False)
    async def send(self, body: dict[str, object]) -> None:
        token = await self.flagtui.client.api_tokens.create(body)
        self.dismiss(token)

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == WRITE:
            self.outcome_unknown = isinstance(error, OutcomeUnknown)
            said = UNKNOWN if self.outcome_unknown else "Not created"
            self.error_line.update(f"{said} — {describe_error(error)}")
        super().io_failed(group, error)

    def action_close(self) -> None:
        if self.outcome_unknown or self.write_in_flight(WRITE) or not self.name_box.value:
            self.dismiss(None)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(None)

        body = "What was typed here has not been sent and would be lost."
        self.app.push_screen(ConfirmModal("Leave without creating?", body,
                                          confirm_label="Discard"), answered)  # fmt: skip


class SecretModal(FlagtuiModal):
    """A new token's secret, shown this once; `y` copies it (OSC 52)."""

    BINDINGS: ClassVar = [
        Binding("y", "copy", "Copy", id="secret.copy", tooltip="Copy the secret (OSC 52)"),
        Binding("escape", "done", "Close", id="secret.done", tooltip="Close (not shown again)"),
    ]  # fmt: skip

    def __init__(self, token: ApiToken) -> None:
        super().__init__(classes="confirm")
        self._secret = token.secret
        self.token_name = token.token_name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel(f"API token {self.token_name} created", classes="dialog-title")
            yield PlainLabel("Its secret, shown this once (flagtui keeps no copy):")
            yield PlainStatic(self._secret, id="token-secret")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Copy (y)", id="copy")
                yield Button("Done", id="done", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#done", Button).focus()

    @on(Button.Pressed, "#copy")
    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self._secret)
        self.notify("Secret copied to the clipboard (OSC 52)", timeout=3)

    @on(Button.Pressed, "#done")
    def action_done(self) -> None:
        self._secret = ""
        self.dismiss(None)
