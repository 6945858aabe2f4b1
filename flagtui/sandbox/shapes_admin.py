"""The shapes of the sandbox's answers about people, projects, change requests and the
server itself (the rest, and what this is for, in `shapes`)."""

from __future__ import annotations

from typing import Any, NotRequired

from typing_extensions import TypedDict

from flagtui.sandbox.shapes import ChangeRequestState, Date, Free, RoleType

# Users, roles, groups, projects, access -------------------------------------------------------


class User(TypedDict):
    id: int
    isAPI: bool
    name: str | None
    email: str
    username: str | None
    imageUrl: str
    inviteLink: str
    loginAttempts: int
    emailSent: bool
    rootRole: int
    seenAt: Date | None
    createdAt: Date
    accountType: str
    permissions: list[str]
    scimId: str | None


class Role(TypedDict):
    id: int
    type: RoleType
    name: str
    description: str
    project: str | None


class Users(TypedDict):
    users: list[User]
    rootRoles: list[Role]


class Roles(TypedDict):
    version: int
    roles: list[Role]


class GroupUser(TypedDict):
    id: int
    name: str | None
    email: str


class GroupMember(TypedDict):
    user: GroupUser


class Group(TypedDict):
    id: int
    name: str
    description: str
    users: list[GroupMember]
    userCount: int
    rootRole: int | None
    createdAt: Date


class Groups(TypedDict):
    groups: list[Group]


class Project(TypedDict):
    id: str
    name: str
    description: str
    featureCount: int
    memberCount: int
    createdAt: Date
    health: int
    mode: str
    favorite: bool


class Projects(TypedDict):
    version: int
    projects: list[Project]


class ProjectEnvironment(TypedDict):
    name: str
    type: str
    enabled: bool
    sortOrder: int
    protected: bool
    visible: bool
    defaultStrategy: NotRequired[dict[str, Any]]


class ProjectEnvironments(TypedDict):
    version: int
    environments: list[ProjectEnvironment]


class AccessUser(TypedDict):
    id: int
    name: str | None
    email: str
    roles: list[int]


class AccessGroup(TypedDict):
    id: int
    name: str
    roles: list[int]


class Access(TypedDict):
    roles: list[Role]
    users: list[AccessUser]
    groups: list[AccessGroup]


# Change requests ------------------------------------------------------------------------------


class Actor(TypedDict):
    id: int
    username: str
    imageUrl: str


class Change(TypedDict):
    id: int
    action: str
    payload: Free
    createdAt: Date
    createdBy: Actor


class ChangedFeature(TypedDict):
    name: str
    changes: list[Change]


class Review(TypedDict):
    createdBy: Actor
    createdAt: Date


class Comment(TypedDict):
    id: int
    text: str
    createdAt: Date
    createdBy: Actor


class Schedule(TypedDict):
    scheduledAt: Date
    status: str


class ChangeRequest(TypedDict):
    id: int
    title: str
    environment: str
    state: ChangeRequestState
    project: str
    createdAt: Date
    createdBy: Actor
    minApprovals: int
    features: list[ChangedFeature]
    approvals: list[Review]
    rejections: list[Review]
    comments: list[Comment]
    segments: list[Free]
    schedule: NotRequired[Schedule]  # a scheduled one's only
    stateTimestamps: NotRequired[dict[str, Date]]  # one change request's, not the list's


# ui-config -----------------------------------------------------------------------------------


class VersionNumbers(TypedDict):
    oss: str
    enterprise: str


class VersionInfo(TypedDict):
    current: VersionNumbers
    latest: Free
    isLatest: bool


class UiConfig(TypedDict):
    name: str
    version: str
    versionInfo: VersionInfo
    environment: str
    sandbox: bool
    slogan: str
    baseUriPath: str
    authenticationType: str
    flags: Free
    links: list[Any]
