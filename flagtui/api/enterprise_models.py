"""Typed records of Unleash Enterprise: roles, groups, project access and change requests.

The contract shows only their ids; the rest follows Unleash Enterprise and is optional, typed
as its published OpenAPI (7.5.0) allows: `number` fields take 7.0 and 0.5, a group may have
no id.
Re-exported by `models`, where every record of the admin API is found.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from flagtui.api.records import CreatedBy, OpenApiNumber, Record, User


class Role(Record):
    id: int
    type: str
    name: str
    description: str | None = None
    project: str | None = None


class GroupMember(Record):
    user: User


class Group(Record):
    """A group without an id can be shown, not granted a role (grants name groups by id)."""

    id: int | None = None
    name: str
    description: str | None = None
    users: list[GroupMember] | None = None
    user_count: int | None = None
    root_role: int | None = None
    created_at: datetime | None = None


class AccessUser(Record):
    """A user holding project roles: `roles` are role ids (see ProjectAccess.roles)."""

    id: int
    name: str | None = None
    username: str | None = None
    email: str | None = None
    roles: list[int] = Field(default_factory=list)

    @property
    def label(self) -> str:
        return self.name or self.username or self.email or f"user {self.id}"


class AccessGroup(Record):
    """A group holding project roles: `roles` are role ids."""

    id: int
    name: str | None = None
    roles: list[int] = Field(default_factory=list)

    @property
    def label(self) -> str:
        return self.name or f"group {self.id}"


class ProjectAccess(Record):
    """Who holds which project roles (GET /projects/:p/access, Enterprise)."""

    roles: list[Role] = Field(default_factory=list)
    users: list[AccessUser] = Field(default_factory=list)
    groups: list[AccessGroup] = Field(default_factory=list)


class ChangeRequestSchedule(Record):
    scheduled_at: datetime | None = None
    status: str | None = None


class ChangeRequestReview(Record):
    """An approval or a rejection of a change request: who, and when."""

    created_by: CreatedBy | None = None
    created_at: datetime | None = None


class ChangeRequestComment(Record):
    id: OpenApiNumber | None = None
    text: str = ""
    created_by: CreatedBy | None = None
    created_at: datetime | None = None


class ChangeRequest(Record):
    """The contract shows only the id; the rest follows Unleash Enterprise and is optional."""

    id: OpenApiNumber | str
    title: str | None = None
    environment: str | None = None
    state: str | None = None
    project: str | None = None
    created_at: datetime | None = None
    created_by: CreatedBy | None = None
    min_approvals: OpenApiNumber | None = None
    features: list[dict[str, Any]] | None = None
    approvals: list[ChangeRequestReview] | None = None
    rejections: list[ChangeRequestReview] | None = None
    comments: list[ChangeRequestComment] | None = None
    schedule: ChangeRequestSchedule | None = None
