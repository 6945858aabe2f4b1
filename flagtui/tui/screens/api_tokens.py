"""API tokens (no key of its own: ctrl+p, "Go to API tokens"): every token with its type,
projects, environment, when it was made and last used, whether it is orphaned or of the legacy
format; secrets masked to their scope. `C` creates one (its secret shown once, `token_form`),
`d` revokes the highlighted one after its name is typed, `r` reads them again."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.api.api_tokens import ApiToken
from flagtui.tui.format import counted, when
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.token_form import SecretModal, TokenFormModal
from flagtui.tui.widgets.confirm import TypedConfirmModal
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

COLUMNS = [
    Column("name", "Name", max=18),
    Column("type", "Type"),
    Column("projects", "Projects", max=12),
    Column("env", "Env", max=11),
    Column("created", "Created"),
    Column("seen", "Seen"),
    Column("marks", "Marks"),
    Column("secret", "Secret", flex=True),
]


def token_row(token: ApiToken) -> Row:
    marks = " ".join(m for m, on in (("orphaned", token.orphaned), ("legacy", token.legacy)) if on)
    cells = (
        token.token_name,
        token.type,
        ",".join(token.projects) or token.project or "",
        token.environment or "",
        when(token.created_at, date_only=True) if token.created_at else "",
        when(token.seen_at) if token.seen_at else "never",
        marks or "—",
        token.masked_secret,
    )
    return token.ref, cells


class ApiTokensScreen(AreaScreen):
    AREA = "api-tokens"
    WRITE_ACTIONS = frozenset({"create_token", "revoke"})
    table = getters.query_one(ResourceTable)
    status_line = getters.query_one("#tokens-status", PlainStatic)
    BINDINGS: ClassVar = [
        Binding("C", "create_token", "Create token", id="tokens.create",
                tooltip="Create an API token (its secret is shown once)"),
        Binding("d,delete", "revoke", "Delete", key_display="d", id="tokens.revoke",
                tooltip="Revoke the token (type its name): SDKs using it stop getting flags"),
        Binding("r", "reload", "Reload", id="tokens.reload", tooltip="Read the tokens again"),
    ]  # fmt: skip

    def compose_body(self) -> ComposeResult:
        yield PlainStatic("reading API tokens…", id="tokens-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="api-tokens"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load()

    @work(exclusive=True, group="api-tokens", exit_on_error=False)
    @read
    async def load(self) -> None:
        tokens = await self.flagtui.client.api_tokens.list()
        self.table.set_rows([token_row(t) for t in tokens], tokens)
        marked = sum(1 for t in tokens if t.orphaned or t.legacy)
        extra = f"; {marked} orphaned or legacy: revoke them" if marked else ""
        self.status_line.update(f"{counted(len(tokens), 'API token')}{extra}")

    def action_reload(self) -> None:
        self.load()

    def action_create_token(self) -> None:
        def shown(_: object) -> None:
            self.load()

        def created(token: ApiToken | None) -> None:
            if token is not None:
                self.app.push_screen(SecretModal(token), shown)

        self.app.push_screen(TokenFormModal(), created)

    def action_revoke(self) -> None:
        token: ApiToken | None = self.table.selected_record
        if token is None:
            return
        name = token.token_name

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending("token-revoke"):
                self.revoke(token)

        body = (
            f"{token.type} token for {token.environment} ({token.masked_secret}). SDKs using it"
            " stop getting flags; this cannot be undone."
        )
        modal = TypedConfirmModal(f"Revoke API token {name}?", body, name, confirm_label="Revoke")
        self.app.push_screen(modal, answered)

    @work(exclusive=True, group="token-revoke", exit_on_error=False)
    async def revoke(self, token: ApiToken) -> None:
        await self.flagtui.client.api_tokens.revoke(token)
        self.notify(f"API token {token.token_name} revoked")
        self.load()
