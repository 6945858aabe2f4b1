"""Project access (Enterprise, operation 4): who holds which project roles now, and a form to
grant roles to users (found by search) and groups, confirmed with a summary of who gets what."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, SelectionList, Static
from textual.widgets.selection_list import Selection

from flagtui.api.edits import Edit, EditConflict
from flagtui.api.errors import NotSupported
from flagtui.api.models import Group, ProjectAccess, Role, User
from flagtui.contract import MIN_USER_QUERY
from flagtui.tui.format import counted, options, safe
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.screens.project_area import ProjectAreaScreen
from flagtui.tui.typing_pause import after_typing_pause
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import ResourceTable, Row
from flagtui.tui.widgets.text import PlainLabel, PlainStatic

COLUMNS = [("kind", "Kind"), ("name", "Name"), ("roles", "Roles")]


def summary(project: str, roles: list[Role], users: list[User], groups: list[Group]) -> str:
    """ "Grant Owner, Member to 2 users (Ada, Bob) and 1 group (SRE) in project payments"."""
    whom = []
    if users:
        whom.append(f"{counted(len(users), 'user')} ({', '.join(u.label for u in users)})")
    if groups:
        whom.append(f"{counted(len(groups), 'group')} ({', '.join(g.name for g in groups)})")
    granted = ", ".join(r.name for r in roles) or "(no role)"
    return f"Grant {granted} to {' and '.join(whom) or 'nobody'} in project {project}"


def access_rows(access: ProjectAccess) -> list[Row]:
    names = {role.id: role.name for role in access.roles}
    rows: list[Row] = []
    for kind, entries in (("user", access.users), ("group", access.groups)):
        for entry in entries:
            roles = ", ".join(names.get(r, str(r)) for r in entry.roles)
            rows.append((f"{kind}:{entry.id}", (kind, entry.label, roles)))
    return rows


class AccessScreen(ProjectAreaScreen):
    AREA = "access"
    current = getters.query_one("#access-current", ResourceTable)
    form = getters.query_one("#access-form", Horizontal)
    role_list = getters.query_one("#roles", SelectionList)
    search_box = getters.query_one("#user-search", Input)
    user_list = getters.query_one("#users", SelectionList)
    group_list = getters.query_one("#groups", SelectionList)
    summary_line = getters.query_one("#access-summary", Static)
    WRITE_ACTIONS = frozenset({"grant"})
    BINDINGS: ClassVar = [
        Binding("ctrl+s", "grant", "Grant…", id="access.grant",
                tooltip="Grant the checked roles to the checked users and groups"),
        Binding("f5", "reload", "Reload", id="access.reload",
                tooltip="Read the project's access, roles and groups again"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.roles: dict[int, Role] = {}
        self.groups: dict[int, Group] = {}
        self.chosen_users: dict[int, User] = {}
        self.found_users: list[User] = []
        self.shown: ProjectAccess | None = None  # the access the table shows (a grant's base)

    def compose_project_body(self) -> ComposeResult:
        yield ResourceTable(COLUMNS, id="access-current")
        with Horizontal(id="access-form"):
            with Vertical():
                yield PlainLabel("Roles", classes="column-title")
                yield SelectionList[int](id="roles")
            with Vertical():
                yield PlainLabel("Users (name or e-mail)", classes="column-title")
                yield Input(placeholder="find users (2+ chars)", id="user-search", compact=True)
                yield SelectionList[int](id="users")
            with Vertical():
                yield PlainLabel("Groups", classes="column-title")
                yield SelectionList[int](id="groups")
        yield PlainStatic("", id="access-summary")

    def on_mount(self) -> None:
        focus_now(self.role_list)
        self.load_projects()

    @work(exclusive=True, group="projects", exit_on_error=False)
    @read
    async def load_projects(self) -> None:
        client = self.flagtui.client
        if client.server is not None and not client.server.enterprise:
            raise NotSupported("Project access", client.server.label)
        roles = await client.access.list_roles()
        groups = await client.access.list_groups()
        self.roles = {r.id: r for r in roles if not r.type.startswith("root")}
        self.groups = {g.id: g for g in groups if g.id is not None}
        self.role_list.add_options(options((r.name, r.id) for r in self.roles.values()))
        self.group_list.add_options(options((g.name, g.id) for g in self.groups.values()))
        # The OpenAPI lets a group come without an id: shown, but a grant names groups by id.
        # Negative values are never a group's id.
        without_id = (g for g in groups if g.id is None)
        self.group_list.add_options(
            Selection(safe(f"{g.name} (no id)"), -n, disabled=True)
            for n, g in enumerate(without_id, 1)
        )
        await self.fill_projects()

    def project_changed(self) -> None:
        self.load()
        self.show_summary()

    @work(exclusive=True, group="access", exit_on_error=False)
    @read
    async def load(self) -> None:
        project = self.project
        if project is None:
            return
        self.status(f"reading who has access to {project}…")
        access = await self.flagtui.client.access.get(project)
        self.shown = access
        rows = access_rows(access)
        self.current.set_rows(rows)
        holders = counted(len(rows), "user or group holds", "users and groups hold")
        self.status(f"{project}: {holders} project roles")

    def not_supported(self) -> None:
        self.current.display = False
        self.form.display = False

    # -- users: search, check, keep the checked ones across searches ---------------------------

    @on(Input.Changed, "#user-search")
    def _typed(self, event: Input.Changed) -> None:
        self.workers.cancel_group(self, "access-typing")
        if len(event.value.strip()) >= MIN_USER_QUERY:
            self.after_typing()

    @after_typing_pause("access-typing")
    def after_typing(self) -> None:
        self.search_users()

    @work(exclusive=True, group="user-search", exit_on_error=False)
    @read
    async def search_users(self) -> None:
        query = self.search_box.value.strip()
        if len(query) >= MIN_USER_QUERY:
            self.found_users = (await self.flagtui.client.users.search(query)).users
            self.show_users()

    def show_users(self) -> None:
        self.user_list.clear_options()
        self.user_list.add_options((safe(u.label), u.id, True) for u in self.chosen_users.values())
        self.user_list.add_options(
            (safe(u.label), u.id, False) for u in self.found_users if u.id not in self.chosen_users
        )

    @on(SelectionList.SelectedChanged, "#users")
    def _users_checked(self, event: SelectionList.SelectedChanged[int]) -> None:
        checked = set(event.selection_list.selected)
        known = {u.id: u for u in (*self.found_users, *self.chosen_users.values())}
        self.chosen_users = {uid: known[uid] for uid in checked if uid in known}
        self.show_summary()

    @on(SelectionList.SelectedChanged, "#roles, #groups")
    def show_summary(self) -> None:
        roles, users, groups = self.chosen()
        if not (roles or users or groups):
            text = "Check roles (space), find and check users, check groups; ctrl+s grants."
        else:
            text = summary(self.project or "?", roles, users, groups)
        self.summary_line.update(text)

    def chosen(self) -> tuple[list[Role], list[User], list[Group]]:
        roles = [self.roles[r] for r in self.role_list.selected]
        groups = [self.groups[g] for g in self.group_list.selected]
        return roles, list(self.chosen_users.values()), groups

    # -- grant -------------------------------------------------------------------------------

    def action_grant(self) -> None:
        project = self.project
        roles, users, groups = self.chosen()
        if project is None or not roles or not (users or groups):
            self.notify("Check at least one role and one user or group.", severity="warning")
            return

        edit = self.flagtui.client.access.plan_grant(
            project,
            roles=[r.id for r in roles],
            users=[u.id for u in users],
            groups=[g.id for g in groups if g.id is not None],
            opened_on=self.shown,
        )

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending("grant"):
                self.grant(project, edit, summary(project, roles, users, groups))

        text = summary(project, roles, users, groups) + "?"
        self.app.push_screen(
            ConfirmModal("Grant project access", text, confirm_label="Grant"), answered
        )

    @work(exclusive=True, group="grant", exit_on_error=False)
    async def grant(self, project: str, edit: Edit, said: str, anyway: bool = False) -> None:
        try:
            await self.flagtui.client.access.send_grant(edit, project, anyway=anyway)
        except EditConflict as moved:
            lead = f"Someone changed who holds which role in {project} since it was shown"
            says = "the table as it is now; what you checked stays checked."
            ask_overtaken(self.app, moved, lead, says, None, reload=self.load,
                          anyway=lambda: self.grant(project, edit, said, anyway=True))  # fmt: skip
            self.load()  # the table as it is now, behind the question
            return
        self.notify(said.replace("Grant", "Granted", 1))
        self.clear_form()
        self.load()

    def clear_form(self) -> None:
        self.chosen_users = {}
        self.found_users = []
        self.search_box.value = ""
        self.show_users()
        self.role_list.deselect_all()
        self.group_list.deselect_all()
        self.show_summary()

    def action_reload(self) -> None:
        if not self.picker.project_ids:  # the first read failed: start again from the projects
            self.load_projects()
        else:
            self.load()
