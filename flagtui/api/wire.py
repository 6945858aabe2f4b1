"""Envelopes of the server's answers, unwrapped by the client before anything leaves it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from flagtui.api.models import (
    ChangeRequest,
    EventRecord,
    Feature,
    FeatureType,
    Group,
    IntegrationEvent,
    Project,
    ProjectEnvironment,
    Record,
    Role,
    User,
    UserList,
)

RawObject = dict[str, Any]


class IntegrationEvents(Record):
    integration_events: list[IntegrationEvent]


class EventSearchAnswer(Record):
    """POST /events/search: {version, events, totalEvents}; GET /search/events: {events, total}."""

    events: list[EventRecord]
    total_events: int | None = None
    total: int | None = None


class ProjectsAnswer(Record):
    projects: list[Project]


class FeatureList(Record):
    features: list[Feature]


class ProjectEnvironments(Record):
    environments: list[ProjectEnvironment]


class FeatureTypes(Record):
    types: list[FeatureType]


class RolesAnswer(Record):
    roles: list[Role]


class GroupsAnswer(Record):
    groups: list[Group] = Field(default_factory=list)


ChangeRequestList = list[ChangeRequest]
UserSearchAnswer = UserList | list[User]
