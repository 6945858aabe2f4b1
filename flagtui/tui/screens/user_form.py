"""The users area's writes: `C` adds a user (`UserFormModal`: name, e-mail, username, root
role; no password: the person signs in by the invite link, which flagtui shows masked), `R`
changes the highlighted user's root role (a picker, then the question). Each is sent once;
refused: the server's words, the form kept; unknown: said, not sent again."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar, cast

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, Input

from flagtui.api.errors import InvalidArgument, OutcomeUnknown
from flagtui.api.models import Role, User
from flagtui.tui.screens.base import FlagtuiModal, IOScreenMixin, describe_error
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine, PlainLabel

WRITE = "user-create"
UNKNOWN = (
    "Outcome unknown: no answer shows whether the user was made. Not sent again from here:"
    " search for them first."
)


def ask(
    screen: Screen[Any], title: str, said: str, answered: Callable[[bool | None], None]
) -> None:
    """The question before a write: the profile's name typed on a production profile."""
    app, profile = screen.app, cast(IOScreenMixin, screen).flagtui.profile
    modal: ConfirmModal = (
        TypedConfirmModal(title, f"{said}\n\nProduction profile.", profile.name,
                          confirm_label="Send")
        if profile.production
        else ConfirmModal(title, said, confirm_label="Send")
    )  # fmt: skip
    app.push_screen(modal, answered)


class UserFormModal(FlagtuiModal):
    """Dismissed with the created user, or None."""

    error_line = getters.query_one("#user-error", MessageLine)
    role_select = getters.query_one("#user-role", Select)
    WRITE_ACTIONS = frozenset({"review"})
    BINDINGS: ClassVar = [
        Binding("ctrl+r", "review", "Review & send", id="user-form.review", priority=True,
                tooltip="Check the user, show the request, then send it"),
        Binding("escape", "close", "Cancel", id="user-form.cancel", tooltip="Back without change"),
    ]  # fmt: skip

    def __init__(self, roles: list[Role]) -> None:
        super().__init__(classes="form")
        self.roles = roles
        self.outcome_unknown = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield PlainLabel("New user (no password: they sign in by the invite link)",
                             classes="dialog-title")  # fmt: skip
            for field, label in (("name", "Name"), ("email", "E-mail"), ("username", "Username")):
                yield PlainLabel(label)
                yield Input(id=f"user-{field}", compact=True)
            yield PlainLabel("Root role")
            offered = [(r.name, r.id) for r in self.roles]
            viewer = next((r.id for r in self.roles if r.name == "Viewer"), offered[0][1])
            yield Select[int](offered, value=viewer, id="user-role", compact=True,
                              allow_blank=False)  # fmt: skip
            yield MessageLine(id="user-error", classes="error-line")
            yield Button("Review & send (ctrl+r)", id="user-review", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#user-name", Input).focus()

    def typed(self, field: str) -> str | None:
        return self.query_one(f"#user-{field}", Input).value.strip() or None

    @on(Button.Pressed, "#user-review")
    @on(Input.Submitted)
    def action_review(self) -> None:
        if self.write_in_flight(WRITE) or self.outcome_unknown:
            self.error_line.update(UNKNOWN if self.outcome_unknown else "sending…")
            return
        role = self.role_select.value if isinstance(self.role_select.value, int) else None
        try:
            if role is None:
                raise InvalidArgument("rootRole", "pick one")
            body = self.flagtui.client.users.create_body(
                name=self.typed("name"), email=self.typed("email"),
                username=self.typed("username"), root_role=role,
            )  # fmt: skip
        except InvalidArgument as exc:
            self.error_line.update(f"Not sent — {exc}")
            return

        def answered(yes: bool | None) -> None:
            if yes and not self.write_in_flight(WRITE):
                self.error_line.update("sending…")
                self.send(body)

        said = f"Sends this request:\nPOST /api/admin/user-admin\n{json.dumps(body)}"
        ask(self, "Create this user?", said, answered)

    @work(exclusive=True, group=WRITE, exit_on_error=False)
    async def send(self, body: dict[str, object]) -> None:
        self.dismiss(await self.flagtui.client.users.create(body))

    def io_failed(self, group: str, error: BaseException) -> None:
        if group == WRITE:
            self.outcome_unknown = isinstance(error, OutcomeUnknown)
            said = UNKNOWN if self.outcome_unknown else "Not created"
            self.error_line.update(f"{said} — {describe_error(error)}")
        super().io_failed(group, error)

    def action_close(self) -> None:
        self.dismiss(None)


def role_change_said(user: User, role: Role, roles: dict[int, str]) -> str:
    before = roles.get(user.root_role, "none") if user.root_role is not None else "none"
    return (
        f"{user.label}: root role {before} → {role.name}.\n"
        f"PUT /api/admin/user-admin/{user.id}\n{json.dumps({'rootRole': role.id})}"
    )
