"""`client.access` (Enterprise): roles, groups, and who has which role in a project
(operation 4 grants it)."""

from __future__ import annotations

from collections.abc import Iterable

from flagtui.api import errors, validation
from flagtui.api.core import Core
from flagtui.api.models import Group, ProjectAccess, Role
from flagtui.api.wire import GroupsAnswer, RolesAnswer, adapter, seg

_PROJECT_ACCESS = adapter(ProjectAccess)


class Access:
    def __init__(self, core: Core) -> None:
        self._core = core

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

    async def grant(
        self, project: str, *, roles: Iterable[int], users: Iterable[int], groups: Iterable[int]
    ) -> None:
        """Operation 4: each listed user and group gets each listed role."""
        body = {
            "roles": validation.id_list("roles", roles),
            "groups": validation.id_list("groups", groups),
            "users": validation.id_list("users", users),
        }
        if not body["roles"]:
            raise errors.InvalidArgument("roles", "at least one role")
        if not body["users"] and not body["groups"]:
            raise errors.InvalidArgument("users/groups", "at least one user or group")
        core, path = self._core, f"/api/admin/projects/{seg(project)}/access"
        await core.enterprise(
            "Project access", lambda: core.write("grant access", "POST", path, json=body)
        )
