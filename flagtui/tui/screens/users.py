"""Users (operation 7): search as you type, from 2 characters, debounced; each user with the
name of their root role; the root roles themselves under the table. `h` opens the event log
filtered to the events the highlighted user made (by user id, as real Unleash filters); `C`
adds a user, `R` changes the highlighted user's root role (`user_form`).

Real Unleash's search answers users without their root role (and no root roles): the screen
then reads GET /api/admin/user-admin once (every user's root role, ADMIN permission) and keeps
it while it is open; a user it does not list (created since) shows "?"."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from flagtui.api.errors import FlagtuiError
from flagtui.api.models import Role, User, UserList
from flagtui.contract import MIN_USER_QUERY
from flagtui.tui.areas import AREAS_BY_NAME
from flagtui.tui.format import counted, when
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.user_form import UserFormModal, ask, role_change_said
from flagtui.tui.typing_pause import after_typing_pause
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable, Row
from flagtui.tui.widgets.text import PlainStatic

HINT = f"s or /: search; type at least {MIN_USER_QUERY} characters of a name, username or e-mail."
COLUMNS = [
    Column("name", "Name", max=24),
    Column("username", "Username", max=20),
    Column("email", "E-mail", flex=True),
    Column("role", "Root role"),
    Column("seen", "Last seen"),
]


def role_names(roles: list[Role]) -> dict[int, str]:
    return {role.id: role.name for role in roles}


def user_row(user: User, roles: dict[int, str], unknown: str = "—") -> Row:
    """`unknown`: what a user without a root role in the answer shows."""
    role = roles.get(user.root_role, str(user.root_role)) if user.root_role is not None else unknown
    cells = (
        user.name or "",
        user.username or "",
        user.email or "",
        role,
        when(user.seen_at) if user.seen_at else "never",
    )
    return str(user.id), cells


class UsersScreen(AreaScreen):
    AREA = "users"
    table = getters.query_one(ResourceTable)
    search_box = getters.query_one("#user-search", Input)
    status_line = getters.query_one("#users-status", Static)
    root_roles_line = getters.query_one("#root-roles", Static)
    BINDINGS: ClassVar = [
        Binding("s", "focus_search", "Search", id="users.search",
                tooltip="Type a name, username or e-mail (also /)"),
        Binding("h", "event_log", "Event log", id="users.events",
                tooltip="The event log filtered to the events this user made"),
        Binding("C", "create_user", "Create user", id="users.create",
                tooltip="Add a user with a root role (they sign in by the invite link)"),
        Binding("R", "change_role", "Root role", id="users.role",
                tooltip="Change the highlighted user's root role"),
    ]  # fmt: skip
    WRITE_ACTIONS = frozenset({"create_user", "change_role"})

    def __init__(self) -> None:
        super().__init__()
        self.result: UserList | None = None
        self.roster: UserList | None = None
        """Every user with their root role (read once, for servers whose search has none)."""
        self.roster_failure: str | None = None

    def compose_body(self) -> ComposeResult:
        yield Input(placeholder="search users (2+ characters)", id="user-search", compact=True)
        yield PlainStatic(HINT, id="users-status", classes="status-line")
        yield FilteredTable(ResourceTable(COLUMNS, id="users"))
        yield PlainStatic("", id="root-roles", classes="status-line")

    def on_mount(self) -> None:
        focus_now(self.table)

    @on(Input.Changed, "#user-search")
    def _typed(self, event: Input.Changed) -> None:
        self.workers.cancel_group(self, "users-typing")
        if len(event.value.strip()) < MIN_USER_QUERY:
            self.workers.cancel_group(self, "users")
            self.result = None
            self.table.set_rows([])
            self.status_line.update(HINT)
            return
        self.after_typing()

    @after_typing_pause("users-typing")
    def after_typing(self) -> None:
        self.search()

    @on(Input.Submitted, "#user-search")
    def _submitted(self) -> None:
        self.table.focus()

    @work(exclusive=True, group="users", exit_on_error=False)
    @read
    async def search(self) -> None:
        query = self.search_box.value.strip()
        if len(query) < MIN_USER_QUERY:
            return
        self.status_line.update(f"searching {query!r}…")
        result = await self.flagtui.client.users.search(query)
        if self.lacks_root_roles(result):
            await self.read_roster()
        self.result = result
        self.show()
        n = len(self.result.users)
        self.status_line.update(f"{counted(n, 'user matches', 'users match')} {query!r}")

    def lacks_root_roles(self, result: UserList) -> bool:
        """Real Unleash's search: users without root roles, and no root roles listed."""
        return bool(result.users) and not result.root_roles and self.roster is None

    async def read_roster(self) -> None:
        """One read for the screen's lifetime; a refusal (a token without ADMIN) is said under
        the table and not asked again."""
        if self.roster_failure is not None:
            return
        try:
            self.roster = await self.flagtui.client.users.list()
        except FlagtuiError as exc:
            self.roster_failure = str(exc)

    def show(self) -> None:
        if self.result is None:
            return
        users, root_roles, unknown = self.result.users, self.result.root_roles, "—"
        if not root_roles and self.roster is not None:  # roles from the user list
            role_of = {u.id: u.root_role for u in self.roster.users}
            users = [u.model_copy(update={"root_role": role_of.get(u.id)}) for u in users]
            root_roles, unknown = self.roster.root_roles, "?"
        roles = role_names(root_roles)
        self.table.set_rows([user_row(u, roles, unknown) for u in users], users)
        listed = ", ".join(f"{r.name} ({r.id})" for r in root_roles) or "—"
        if not root_roles and self.roster_failure is not None:
            listed = f"not readable ({self.roster_failure})"
        self.root_roles_line.update(f"Root roles: {listed}")

    def redraw_times(self) -> None:
        self.show()

    def action_focus_search(self) -> None:
        focus_now(self.search_box)

    def action_event_log(self) -> None:
        user: User | None = self.table.selected_record
        if user is None:
            self.notify("No user highlighted: search for one first (s).", timeout=3)
            return
        self.app.push_screen(AREAS_BY_NAME["events"].make_screen(created_by=user.id))

    # -- writes (flagtui/tui/screens/user_form.py) -----------------------------------------------

    @work(exclusive=True, group="users-roles", exit_on_error=False)
    async def action_create_user(self) -> None:
        roster = self.roster = await self.flagtui.client.users.list()

        def created(user: User | None) -> None:
            if user is not None:
                self.notify(f"User {user.label} created (id {user.id})")
                self.search_box.value = user.email or user.username or ""

        self.app.push_screen(UserFormModal(roster.root_roles), created)

    @work(exclusive=True, group="users-roles", exit_on_error=False)
    async def action_change_role(self) -> None:
        user: User | None = self.table.selected_record
        if user is None:
            self.notify("No user highlighted: search for one first (s).", timeout=3)
            return
        roster = self.roster = await self.flagtui.client.users.list()
        roles = roster.root_roles
        current = next((u.root_role for u in roster.users if u.id == user.id), user.root_role)
        user = user.model_copy(update={"root_role": current})
        names = role_names(roles)

        def picked(index: int | None) -> None:
            if index is None:
                return
            role = roles[index]
            if role.id == current:
                self.notify(f"{user.label} already has root role {role.name}: nothing sent")
                return

            def answered(yes: bool | None) -> None:
                if yes and not self.still_sending("user-role"):
                    self.set_role(user, role)

            ask(self, f"Change {user.label}'s root role?", role_change_said(user, role, names),
                answered)  # fmt: skip

        labels = [f"{r.name}{' (now)' if r.id == current else ''}" for r in roles]
        self.app.push_screen(ChoicePicker(f"Root role of {user.label}", labels), picked)

    @work(exclusive=True, group="user-role", exit_on_error=False)
    async def set_role(self, user: User, role: Role) -> None:
        await self.flagtui.client.users.set_root_role(user.id, role.id)
        self.notify(f"{user.label}: root role now {role.name}")
        self.roster = await self.flagtui.client.users.list()
        self.search()
