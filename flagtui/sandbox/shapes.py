"""The shapes of the sandbox's answers, declared once: features, events and integrations
here, people, projects, change requests and ui-config in `shapes_admin`.

Handlers return these TypedDicts, so mypy checks every answer against them; `openapi`
derives the document's schemas from them (through pydantic), so the document cannot drift
from what the handlers build. Times are ISO strings; `Date` marks them for the document.
(pydantic reads TypedDicts from typing_extensions on Python 3.11.)
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import WithJsonSchema
from typing_extensions import TypedDict

from flagtui.contract import CHANGE_REQUEST_STATES, EVENT_TYPES, LIFECYCLE_STAGES, MAX_LIFETIME_DAYS

Date = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]
EventType = Annotated[str, WithJsonSchema({"type": "string", "enum": sorted(EVENT_TYPES)})]
Stage = Annotated[str, WithJsonSchema({"type": "string", "enum": list(LIFECYCLE_STAGES)})]
ChangeRequestState = Annotated[
    str, WithJsonSchema({"type": "string", "enum": list(CHANGE_REQUEST_STATES)})
]
LIFETIME_DAYS: dict[str, Any] = {
    "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_LIFETIME_DAYS}, {"type": "null"}]
}
LifetimeDays = Annotated[int | None, WithJsonSchema(LIFETIME_DAYS)]
DeliveryState = Annotated[
    str, WithJsonSchema({"type": "string", "enum": ["success", "failed", "successWithErrors"]})
]
RoleType = Annotated[
    str, WithJsonSchema({"type": "string", "enum": ["root", "root-custom", "project", "custom"]})
]
Free = dict[str, Any]


class Error(TypedDict):
    id: str
    name: str
    message: str


# Features ------------------------------------------------------------------------------------


class UserBrief(TypedDict):
    id: int
    name: str
    imageUrl: str


class Tag(TypedDict):
    value: str
    type: str


class Lifecycle(TypedDict):
    stage: Stage
    enteredStageAt: Date
    status: NotRequired[str]  # a completed flag's: kept or discarded


class Constraint(TypedDict):
    """Stored as sent: value, caseInsensitive and inverted only when given (real Unleash)."""

    contextName: str
    operator: str
    caseInsensitive: NotRequired[bool]
    inverted: NotRequired[bool]
    values: list[str]
    value: NotRequired[str]


class VariantPayload(TypedDict):
    type: str
    value: str


class VariantOverride(TypedDict):
    contextName: str
    values: list[str]


class Variant(TypedDict):
    """payload is optional; overrides exist on environment variants only (real Unleash)."""

    name: str
    weight: int
    weightType: str
    stickiness: str
    payload: NotRequired[VariantPayload]
    overrides: NotRequired[list[VariantOverride]]


class Strategy(TypedDict):
    id: str
    name: str
    title: str
    disabled: bool
    featureName: str
    sortOrder: int
    segments: list[int]
    constraints: list[Constraint]
    variants: list[Variant]
    parameters: dict[str, str]


class FeatureEnvironment(TypedDict):
    name: str
    featureName: str
    environment: str
    type: str
    enabled: bool
    sortOrder: int
    variantCount: int
    strategies: list[Strategy]
    variants: list[Variant]
    lastSeenAt: Date | None
    hasStrategies: bool
    hasEnabledStrategies: bool


class Dependency(TypedDict):
    feature: str
    enabled: bool
    variants: list[str]


class Collaborators(TypedDict):
    users: list[UserBrief]


class Feature(TypedDict):
    name: str
    type: str
    description: str | None
    archived: bool
    project: str
    enabled: bool
    stale: bool
    favorite: bool
    impressionData: bool
    createdAt: Date
    createdBy: UserBrief
    archivedAt: Date | None
    lastSeenAt: Date | None
    environments: list[FeatureEnvironment]
    variants: list[Variant]
    strategies: list[Strategy]
    tags: list[Tag]
    children: list[str]
    lifecycle: Lifecycle
    dependencies: list[Dependency]
    collaborators: Collaborators


class SearchEnvironment(TypedDict):
    name: str
    enabled: bool
    type: str
    sortOrder: int
    variantCount: int
    lastSeenAt: Date | None
    hasStrategies: bool
    hasEnabledStrategies: bool


class FeatureSearchItem(TypedDict):
    name: str
    description: str | None
    type: str
    project: str
    stale: bool
    favorite: bool
    impressionData: bool
    createdAt: Date
    archivedAt: Date | None
    lastSeenAt: Date | None
    environments: list[SearchEnvironment]
    tags: list[Tag]
    lifecycle: Lifecycle
    createdBy: UserBrief
    dependencyType: Annotated[
        str | None,
        WithJsonSchema(
            {"anyOf": [{"type": "string", "enum": ["parent", "child"]}, {"type": "null"}]}
        ),
    ]
    segments: list[str]


class ProjectFeatures(TypedDict):
    version: int
    features: list[FeatureSearchItem]


class FeatureSearch(TypedDict):
    features: list[FeatureSearchItem]
    total: int


class FeatureType(TypedDict):
    id: str
    name: str
    description: str
    lifetimeDays: LifetimeDays


class FeatureTags(TypedDict):
    version: int
    tags: list[Tag]


class FeatureTypes(TypedDict):
    version: int
    types: list[FeatureType]


# Events and integrations ----------------------------------------------------------------------


class Event(TypedDict):
    id: int
    createdAt: Date
    type: EventType
    createdBy: str
    createdByUserId: int | None
    environment: str | None
    project: str | None
    featureName: str | None
    data: Free | None
    preData: Free | None
    tags: list[Tag]


class EventSearchPost(TypedDict):
    version: Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1})]
    events: list[Event]
    totalEvents: int


class EventSearch(TypedDict):
    events: list[Event]
    total: int


class DeliveryDetails(TypedDict):
    message: str
    channels: NotRequired[list[str]]


class IntegrationEvent(TypedDict):
    id: str
    integrationId: int
    createdAt: Date
    state: DeliveryState
    stateDetails: str
    event: Event
    details: DeliveryDetails


class IntegrationEvents(TypedDict):
    integrationEvents: list[IntegrationEvent]


class Addon(TypedDict):
    id: int
    provider: str
    description: str
    enabled: bool
    events: list[str]
    projects: list[str]
    environments: list[str]
    parameters: dict[str, str]
    createdAt: Date


class AddonParameter(TypedDict):
    name: str
    displayName: str
    type: str
    required: bool
    sensitive: bool


class AddonProvider(TypedDict):
    name: str
    displayName: str
    description: str
    parameters: list[AddonParameter]
    events: list[str]


class Addons(TypedDict):
    addons: list[Addon]
    providers: list[AddonProvider]
