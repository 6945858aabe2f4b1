"""`client.access` (Enterprise): roles, groups, and who has which role in a project
(operation 4 grants it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from flagtui.api import errors, validation
from flagtui.api.core import Core
from flagtui.api.edits import Edit, EditConflict, FieldChange, changed_fields
from flagtui.api.events import Events
from flagtui.api.models import EventRecord, Group, ProjectAccess, Role
from flagtui.api.rollout_requests import PlannedWrite
from flagtui.api.wire import GroupsAnswer, RolesAnswer, adapter, seg

_PROJECT_ACCESS = adapter(ProjectAccess)


class Access:
    def __init__(self, core: Core, events: Events) -> None:
        self._core = core
        self._events = events

    async def list_roles(self) -> list[Role]:
        core = self._core
        answer = await core.enterprise(
            "Roles", lambda: core.read("GET", "/api/admin/roles", adapter(RolesAnswer))
        )
        return answer.roles

    async def list_groups(self) -> list[Group]:
        core = self._core
        answer = await core.enterprise(
            "Groups", lambda: core.read("GET", "/api/admin/groups", adapter(GroupsAnswer))
        )
        return answer.groups

    async def get(self, project: str) -> ProjectAccess:
        core, path = self._core, f"/api/admin/projects/{seg(project)}/access"
        return await core.enterprise(
            "Project access", lambda: core.read("GET", path, _PROJECT_ACCESS)
        )

    def plan_grant(
        self,
        project: str,
        *,
        roles: Iterable[int],
        users: Iterable[int],
        groups: Iterable[int],
        opened_on: ProjectAccess | None = None,
    ) -> Edit:
        """Operation 4's request: each listed user and group gets each listed role. `opened_on`:
        the project's access as the form showed it; what the listed users and groups held
        there is compared before sending."""
        body = {
            "roles": validation.id_list("roles", roles),
            "groups": validation.id_list("groups", groups),
            "users": validation.id_list("users", users),
        }
        if not body["roles"]:
            raise errors.InvalidArgument("roles", "at least one role")
        if not body["users"] and not body["groups"]:
            raise errors.InvalidArgument("users/groups", "at least one user or group")
        path = f"/api/admin/projects/{seg(project)}/access"
        plan = PlannedWrite("grant access", "POST", path, body)
        return Edit(plan, None if opened_on is None else _held(opened_on, body))

    async def send_grant(self, edit: Edit, project: str, *, anyway: bool = False) -> None:
        """Send a planned grant. Made from the access shown (`edit.opened_on`): read again
        first, and a listed user's or group's roles changed since is EditConflict (nothing
        sent) unless `anyway`."""
        core, plan = self._core, edit.plan
        core.require_writable(plan.action)
        if edit.opened_on is not None and not anyway:
            now = await self.get(project)
            if changed := changed_fields(edit.opened_on, _held(now, plan.body)):
                recorded = await self._recorded(project)
                what = f"the access to project {project}"
                raise EditConflict(what, plan.action, _named(changed, now), now, recorded)
        await core.enterprise(
            "Project access",
            lambda: core.write(plan.action, plan.method, plan.path, json=plan.body),
        )

    async def grant(
        self, project: str, *, roles: Iterable[int], users: Iterable[int], groups: Iterable[int]
    ) -> None:
        """Operation 4: each listed user and group gets each listed role."""
        edit = self.plan_grant(project, roles=roles, users=users, groups=groups)
        await self.send_grant(edit, project)

    async def _recorded(self, project: str) -> list[EventRecord]:
        """The project's newest access changes (who, when); none where the log is closed."""
        try:
            page = await self._events.search(project=project, limit=20)
        except errors.FlagtuiError:
            return []
        return [e for e in page.events if e.type.startswith("project-")][:3]


def _named(changes: list[FieldChange], now: ProjectAccess) -> list[FieldChange]:
    """`user 5 (Ada Lovelace)`: each user and group by its name too, where the access read now
    names it (one granted since, or holding roles still); else by its id alone."""
    names = {f"user {u.id}": u.name or u.username or u.email for u in now.users}
    names |= {f"group {g.id}": g.name for g in now.groups}
    return [
        replace(c, field=f"{c.field} ({names[c.field]})") if names.get(c.field) else c
        for c in changes
    ]


def _held(access: ProjectAccess, body: dict[str, list[int]]) -> dict[str, list[str]]:
    """The roles each user and group of a grant holds in the project (names where known)."""
    names = {r.id: r.name for r in access.roles}
    held: dict[str, list[str]] = {}
    for kind, entries in (("user", access.users), ("group", access.groups)):
        roles = {e.id: e.roles for e in entries}
        for entry_id in body[f"{kind}s"]:
            held[f"{kind} {entry_id}"] = sorted(
                names.get(r, str(r)) for r in roles.get(entry_id, [])
            )
    return held
