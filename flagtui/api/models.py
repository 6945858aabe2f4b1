"""Typed records of the admin API; the Enterprise ones are in `enterprise_models`, a flag's
rollout in `rollout_models`, the base and the people a record can name in `records`; all are
importable from here.

Fields follow the contract (spec/admin-api.md): required fields are required, the rest optional,
unknown fields ignored. Attributes are snake_case; the wire names are camelCase aliases.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from flagtui.api.enterprise_models import (
    AccessGroup,
    AccessUser,
    ChangeRequest,
    ChangeRequestComment,
    ChangeRequestReview,
    ChangeRequestSchedule,
    Group,
    GroupMember,
    ProjectAccess,
    Role,
)
from flagtui.api.records import CreatedBy, Record, User
from flagtui.api.rollout_models import (
    Constraint,
    ContextField,
    ContextFieldUse,
    LegalValue,
    Segment,
    Strategy,
    StrategyParameter,
    StrategyType,
    Variant,
    VariantOverride,
    VariantPayload,
)
from flagtui.contract import PATCH_OPS_WITH_FROM, PATCH_OPS_WITH_VALUE, PatchOp

__all__ = [
    "AccessGroup",
    "AccessUser",
    "Addon",
    "AddonList",
    "AddonParameterSpec",
    "AddonProvider",
    "ChangeRequest",
    "ChangeRequestComment",
    "ChangeRequestReview",
    "ChangeRequestSchedule",
    "Collaborators",
    "Constraint",
    "ContextField",
    "ContextFieldUse",
    "CreatedBy",
    "Dependency",
    "EventPage",
    "EventRecord",
    "Feature",
    "FeatureEnvironment",
    "FeaturePage",
    "FeatureType",
    "Group",
    "GroupMember",
    "IntegrationEvent",
    "LegalValue",
    "Lifecycle",
    "PatchOperation",
    "Project",
    "ProjectAccess",
    "ProjectEnvironment",
    "Record",
    "Role",
    "Segment",
    "ServerInfo",
    "Strategy",
    "StrategyParameter",
    "StrategyType",
    "Tag",
    "TagType",
    "User",
    "UserList",
    "Variant",
    "VariantOverride",
    "VariantPayload",
]


class Tag(Record):
    value: str
    type: str


class TagType(Record):
    name: str
    description: str | None = None
    icon: str | None = None
    color: str | None = None


class Lifecycle(Record):
    stage: str
    entered_stage_at: datetime | None = None
    status: str | None = None  # of a completed flag: kept or discarded


class Dependency(Record):
    feature: str
    enabled: bool | None = None
    variants: list[str] | None = None


class FeatureLink(Record):
    """A link on a flag (Unleash 7.1 on): its id is the server's, not part of it (a flags
    file leaves it out); it names the link to delete."""

    url: str
    title: str | None = None
    id: str | None = None


class Collaborators(Record):
    users: list[CreatedBy] = Field(default_factory=list)


class FeatureEnvironment(Record):
    name: str
    feature_name: str | None = None
    environment: str | None = None
    type: str | None = None
    enabled: bool = False
    sort_order: int | None = None
    variant_count: int | None = None
    strategies: list[Strategy] | None = None
    variants: list[Variant] | None = None
    last_seen_at: datetime | None = None
    has_strategies: bool | None = None
    has_enabled_strategies: bool | None = None


class Feature(Record):
    """A feature flag: the full record of the contract, or a search/list item (fewer fields)."""

    name: str
    type: str | None = None
    description: str | None = None
    archived: bool | None = None
    project: str | None = None
    enabled: bool | None = None
    stale: bool | None = None
    favorite: bool | None = None
    impression_data: bool | None = None
    created_at: datetime | None = None
    created_by: CreatedBy | None = None
    archived_at: datetime | None = None
    last_seen_at: datetime | None = None
    environments: list[FeatureEnvironment] | None = None
    variants: list[Variant] | None = None
    strategies: list[Strategy] | None = None
    tags: list[Tag] | None = None
    children: list[str] | None = None
    lifecycle: Lifecycle | None = None
    dependencies: list[Dependency] | None = None
    links: list[FeatureLink] | None = None
    collaborators: Collaborators | None = None

    @property
    def is_full(self) -> bool:
        """True when the record carries per-environment detail (not real Unleash's short PATCH
        answer). Lifecycle is not required: a brand-new flag on real Unleash has none yet."""
        return self.environments is not None

    @property
    def is_archived(self) -> bool:
        return bool(self.archived) or self.archived_at is not None


class FeaturePage(Record):
    """One page of feature search. `source` is "project-list" when the server's search limit
    was spent and the page was made from the project's feature list (no lifecycle)."""

    features: list[Feature]
    total: int
    source: Literal["search", "project-list"] = "search"


class FeatureType(Record):
    id: str
    name: str
    description: str
    lifetime_days: int | None


class Project(Record):
    id: str
    name: str
    description: str | None = None
    feature_count: int | None = None
    member_count: int | None = None
    created_at: datetime | None = None
    health: int | None = None
    mode: str | None = None
    favorite: bool | None = None


class ProjectEnvironment(Record):
    name: str
    type: str | None = None
    enabled: bool | None = None
    sort_order: int | None = None
    protected: bool | None = None
    visible: bool | None = None
    default_strategy: Strategy | None = None  # the project's, once set (real Unleash 6.10+)


class EventRecord(Record):
    id: int
    created_at: datetime
    type: str
    created_by: str | None = None
    created_by_user_id: int | None = None
    environment: str | None = None
    project: str | None = None
    feature_name: str | None = None
    data: Any = None
    pre_data: Any = None
    tags: list[Tag] | None = None
    # Unleash's GET /search/events (6.x on) names the event for people: label "Flag
    # archived", summary in markdown ("**ada** archived **checkout** in project …").
    label: str | None = None
    summary: str | None = None


class EventPage(Record):
    """One page of event search, newest first; `total` counts every match when the server says.

    `next_cursor` is what to pass to get the following page (None on the last page).
    """

    events: list[EventRecord]
    total: int | None = None
    next_cursor: int | None = None


class IntegrationEvent(Record):
    id: str
    integration_id: int
    created_at: datetime
    state: str
    state_details: str | None = None
    event: EventRecord | None = None
    details: dict[str, Any] | None = None

    @property
    def failed(self) -> bool:
        return self.state != "success"


class AddonParameterSpec(Record):
    name: str
    display_name: str | None = None
    type: str | None = None
    required: bool | None = None
    sensitive: bool | None = None


class AddonProvider(Record):
    name: str
    display_name: str | None = None
    description: str | None = None
    parameters: list[AddonParameterSpec] | None = None
    events: list[str] | None = None


class Addon(Record):
    """An integration configuration (Unleash calls them addons)."""

    id: int
    provider: str
    description: str | None = None
    enabled: bool = True
    events: list[str] | None = None
    projects: list[str] | None = None
    environments: list[str] | None = None
    parameters: dict[str, Any] | None = None
    created_at: datetime | None = None


class AddonList(Record):
    addons: list[Addon]
    providers: list[AddonProvider] = Field(default_factory=list)


class UserList(Record):
    users: list[User]
    root_roles: list[Role] = Field(default_factory=list)


class PatchOperation(Record):
    op: PatchOp
    path: str
    from_: str | None = Field(default=None, alias="from")
    value: Any = None

    def to_wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"op": self.op, "path": self.path}
        if self.op in PATCH_OPS_WITH_FROM:
            body["from"] = self.from_
        if self.op in PATCH_OPS_WITH_VALUE:
            body["value"] = self.value
        return body


class ServerInfo(Record):
    """What ui-config says about the server: version and edition decide what is available."""

    version: str = "unknown"
    edition: Literal["oss", "enterprise"] = "oss"
    name: str | None = None
    sandbox: bool = False

    @property
    def enterprise(self) -> bool:
        return self.edition == "enterprise"

    @property
    def label(self) -> str:
        kind = "Sandbox" if self.sandbox else ("Enterprise" if self.enterprise else "OSS")
        return f"{kind} {self.version}"
