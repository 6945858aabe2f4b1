"""The browse reads: projects, features, environments, types, addons, and the Enterprise
lists (change requests, roles, groups, project access). AdminClient inherits these methods."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter

from flagtui.api import errors
from flagtui.api.models import (
    AddonList,
    ChangeRequest,
    Feature,
    FeatureType,
    Group,
    Project,
    ProjectAccess,
    ProjectEnvironment,
    Role,
    UserList,
)
from flagtui.api.wire import (
    ChangeRequestList,
    FeatureList,
    FeatureTags,
    FeatureTypes,
    GroupsAnswer,
    ProjectEnvironments,
    ProjectsAnswer,
    RolesAnswer,
    adapter,
    seg,
)

T = TypeVar("T")
_FEATURE = adapter(Feature)
_CHANGE_REQUEST = adapter(ChangeRequest)
_PROJECT_ACCESS = adapter(ProjectAccess)
_ADDONS = adapter(AddonList)


class _Host(Protocol):
    """What these methods need of the AdminClient they are mixed into."""

    def _read(
        self, method: str, path: str, adapter: TypeAdapter[T], **kwargs: Any
    ) -> Awaitable[T]: ...
    def _enterprise(self, operation: str, call: Callable[[], Awaitable[T]]) -> Awaitable[T]: ...


class BrowseReads:
    async def list_projects(self: _Host) -> list[Project]:
        answer = await self._read("GET", "/api/admin/projects", adapter(ProjectsAnswer))
        return answer.projects

    async def list_project_features(self: _Host, project: str) -> list[Feature]:
        """Every live feature of a project in one read (not rate-limited on real Unleash)."""
        path = f"/api/admin/projects/{seg(project)}/features"
        answer = await self._read("GET", path, adapter(FeatureList))
        return answer.features

    async def get_feature(self: _Host, project: str, feature: str) -> Feature:
        """The flag in full. Real Unleash (6.10 to 8.2 at least) leaves `tags` out of this
        payload: they are read from the flag's tag list then. Tags left unset (None) when
        that read is refused mean "not known", unlike an empty list."""
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        found = await self._read("GET", path, _FEATURE)
        if "tags" in found.model_fields_set:
            return found
        tags_path = f"/api/admin/features/{seg(feature)}/tags"
        try:
            answer = await self._read("GET", tags_path, adapter(FeatureTags))
        except (errors.NotFoundError, errors.NoAccessError, errors.UnexpectedResponse):
            return found
        return found.model_copy(update={"tags": answer.tags})

    async def list_project_environments(self: _Host, project: str) -> list[ProjectEnvironment]:
        path = f"/api/admin/environments/project/{seg(project)}"
        answer = await self._read("GET", path, adapter(ProjectEnvironments))
        return answer.environments

    async def list_users(self: _Host) -> UserList:
        """Every user with their root role, and the root roles (ADMIN permission). Real
        Unleash's user search answers without root roles: this read has them."""
        return await self._read("GET", "/api/admin/user-admin", adapter(UserList))

    async def list_feature_types(self: _Host) -> list[FeatureType]:
        answer = await self._read("GET", "/api/admin/feature-types", adapter(FeatureTypes))
        return answer.types

    async def list_addons(self: _Host) -> AddonList:
        return await self._read("GET", "/api/admin/addons", _ADDONS)

    async def list_change_requests(self: _Host, project: str) -> list[ChangeRequest]:
        path = f"/api/admin/projects/{seg(project)}/change-requests"
        answer = await self._enterprise(
            "Change requests", lambda: self._read("GET", path, adapter(ChangeRequestList))
        )
        return list(answer)

    async def get_change_request(
        self: _Host, project: str, change_request_id: int | str
    ) -> ChangeRequest:
        path = f"/api/admin/projects/{seg(project)}/change-requests/{seg(change_request_id)}"
        return await self._enterprise(
            "Change requests", lambda: self._read("GET", path, _CHANGE_REQUEST)
        )

    async def list_roles(self: _Host) -> list[Role]:
        answer = await self._enterprise(
            "Roles", lambda: self._read("GET", "/api/admin/roles", adapter(RolesAnswer))
        )
        return answer.roles

    async def list_groups(self: _Host) -> list[Group]:
        answer = await self._enterprise(
            "Groups", lambda: self._read("GET", "/api/admin/groups", adapter(GroupsAnswer))
        )
        return answer.groups

    async def get_project_access(self: _Host, project: str) -> ProjectAccess:
        path = f"/api/admin/projects/{seg(project)}/access"
        return await self._enterprise(
            "Project access", lambda: self._read("GET", path, _PROJECT_ACCESS)
        )
