"""Envelopes of the server's answers, unwrapped by the client before anything leaves it, and
the two helpers every request uses: a path segment, quoted, and a model's cached adapter."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import quote

from pydantic import Field, TypeAdapter

from flagtui.api.errors import InvalidArgument
from flagtui.api.models import (
    ChangeRequest,
    ContextField,
    ContextFieldUse,
    EventRecord,
    Feature,
    FeatureType,
    Group,
    IntegrationEvent,
    Project,
    ProjectEnvironment,
    Record,
    Role,
    Segment,
    Strategy,
    StrategyType,
    Tag,
    User,
    UserList,
    Variant,
)

RawObject = dict[str, Any]


def seg(value: str | float) -> str:
    """A name as one segment of a request's path, or InvalidArgument if no URL can carry it
    (a lone surrogate: what Python makes of a command-line argument that is not UTF-8)."""
    try:
        return quote(str(value), safe="")
    except UnicodeEncodeError:
        raise InvalidArgument(ascii(value), "a name that is not valid UTF-8 text") from None


@functools.cache
def adapter(model: Any) -> TypeAdapter[Any]:
    """One per model: building a TypeAdapter builds its schema (about 1 ms per request)."""
    return TypeAdapter(model)


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


class FlagName(Record):
    name: str


class FeatureNames(Record):
    """A project's feature list, its names alone (what a walk through a large project holds)."""

    features: list[FlagName]


class ProjectEnvironments(Record):
    environments: list[ProjectEnvironment]


class FeatureTags(Record):
    tags: list[Tag]


class FeatureTypes(Record):
    types: list[FeatureType]


class RolesAnswer(Record):
    roles: list[Role]


class GroupsAnswer(Record):
    groups: list[Group] = Field(default_factory=list)


ChangeRequestList = list[ChangeRequest]
UserSearchAnswer = UserList | list[User]


class StrategyTypesAnswer(Record):
    strategies: list[StrategyType]


class SegmentsAnswer(Record):
    segments: list[Segment] = Field(default_factory=list)


class EnvironmentVariants(Record):
    variants: list[Variant]


class ContextFieldUses(Record):
    strategies: list[ContextFieldUse] = Field(default_factory=list)


ContextFieldList = list[ContextField]
StrategyList = list[Strategy]
