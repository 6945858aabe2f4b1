"""The shapes of the rollout routes' answers: created features, strategy types, context fields,
segments, feature strategies, environment variants, the playground and the client API.

As in `shapes`, handlers return these TypedDicts and `openapi` derives the document from them.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import WithJsonSchema
from typing_extensions import TypedDict

from flagtui.sandbox.shapes import Constraint, Date, Dependency, Variant, VariantPayload

Free = dict[str, Any]
# A strategy result the engine could not settle: "unknown" (disabled strategies).
MaybeBool = Annotated[
    bool | str, WithJsonSchema({"anyOf": [{"type": "boolean"}, {"enum": ["unknown"]}]})
]


class CreatedFeature(TypedDict):
    """Real Unleash's answer to a creation (and the feature-created event's data)."""

    name: str
    description: str | None
    type: str
    project: str
    stale: bool
    createdAt: Date
    impressionData: bool
    archived: bool


class StrategyParameter(TypedDict):
    name: str
    type: str
    description: str
    required: bool


class StrategyType(TypedDict):
    displayName: str
    name: str
    editable: bool
    description: str
    parameters: list[StrategyParameter]
    deprecated: bool
    title: str | None


class StrategyTypes(TypedDict):
    version: int
    strategies: list[StrategyType]


class LegalValue(TypedDict):
    value: str
    description: NotRequired[str]


class ContextFieldRecord(TypedDict):
    """One context field (`GET /api/admin/context/:name`, and a creation's answer)."""

    name: str
    description: str | None
    stickiness: bool
    sortOrder: int
    legalValues: list[LegalValue]
    createdAt: Date | None


class ContextField(ContextFieldRecord):
    """A context field as the list has it: with how many live flags and projects use it."""

    usedInProjects: int
    usedInFeatures: int


class ContextFieldStrategy(TypedDict):
    id: str
    projectId: str
    featureName: str
    strategyName: str
    environment: str


class ContextFieldStrategies(TypedDict):
    strategies: list[ContextFieldStrategy]


class Segment(TypedDict):
    id: int
    name: str
    description: str
    constraints: list[Constraint]
    createdBy: str | None
    createdAt: Date | None
    usedInFeatures: int
    usedInProjects: int


class Segments(TypedDict):
    segments: list[Segment]


class SegmentRecord(TypedDict):
    """A segment as its own routes and its events say it (no usage counts)."""

    id: int
    name: str
    description: str | None
    project: NotRequired[str]
    constraints: list[Constraint]
    createdBy: str | None
    createdAt: Date | None


class SegmentStrategy(TypedDict):
    id: str
    projectId: str
    featureName: str
    strategyName: str
    environment: str


class SegmentStrategies(TypedDict):
    strategies: list[SegmentStrategy]
    changeRequestStrategies: list[SegmentStrategy]


class FeatureStrategy(TypedDict):
    """A strategy as the strategy routes answer it (no featureName, as real Unleash)."""

    id: str
    name: str
    title: str
    disabled: bool
    sortOrder: int
    segments: list[int]
    constraints: list[Constraint]
    variants: list[Variant]
    parameters: dict[str, str]


class EnvironmentVariants(TypedDict):
    version: int
    variants: list[Variant]


class ClientStrategy(TypedDict):
    name: str
    constraints: list[Constraint]
    parameters: dict[str, str]
    variants: list[Variant]
    segments: NotRequired[list[int]]


class ClientFeature(TypedDict):
    name: str
    type: str
    description: str | None
    project: str
    enabled: bool
    stale: bool
    impressionData: bool
    strategies: list[ClientStrategy]
    variants: list[Variant]
    dependencies: NotRequired[list[Dependency]]


class ClientSegment(TypedDict):
    id: int
    name: str
    constraints: list[Constraint]


class ClientMeta(TypedDict):
    revisionId: int
    etag: str
    queryHash: str


class ClientFeatures(TypedDict):
    version: int
    features: list[ClientFeature]
    query: Free
    segments: NotRequired[list[ClientSegment]]
    meta: ClientMeta


class EvaluatedVariant(TypedDict):
    name: str
    enabled: bool
    payload: NotRequired[VariantPayload]
    feature_enabled: NotRequired[bool]


class StrategyResult(TypedDict):
    evaluationStatus: Annotated[
        str, WithJsonSchema({"enum": ["complete", "incomplete", "unevaluated"]})
    ]
    enabled: MaybeBool
    variant: NotRequired[EvaluatedVariant | None]
    variants: NotRequired[list[Variant]]


class EvaluatedConstraint(Constraint):
    result: bool


class EvaluatedSegment(TypedDict):
    id: int
    name: str
    result: bool
    constraints: list[EvaluatedConstraint]


class StrategyLinks(TypedDict):
    edit: str


class EvaluatedStrategy(TypedDict):
    id: str
    name: str
    title: NotRequired[str]
    disabled: bool
    parameters: dict[str, str]
    result: StrategyResult
    constraints: list[EvaluatedConstraint]
    segments: list[EvaluatedSegment]
    links: StrategyLinks


class StrategiesOutcome(TypedDict):
    result: MaybeBool
    data: list[EvaluatedStrategy]


class PlaygroundFeature(TypedDict):
    name: str
    projectId: str
    strategies: StrategiesOutcome
    hasUnsatisfiedDependency: bool
    isEnabledInCurrentEnvironment: bool
    isEnabled: bool
    variant: EvaluatedVariant
    variants: list[Variant]


class Playground(TypedDict):
    input: Free
    features: list[PlaygroundFeature]
