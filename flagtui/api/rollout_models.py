"""Typed records of a flag's rollout: strategies and what they are built from (strategy types,
context fields, segments), constraints and variants; importable from `models` too.

Each accepts what Unleash's published OpenAPI document (7.5.0) allows for it: `number` fields
(sort orders, segment ids, environment variant weights) may come as 7.0, and are held as 7.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field, StrictBool

from flagtui.api.records import OpenApiNumber, Record


class Constraint(Record):
    """String operators (IN, NOT_IN, STR_*) compare `values`; the others one `value`. Its flags
    are booleans only: `"yes"` or `1` given for one is refused, not read as true."""

    context_name: str
    operator: str
    case_insensitive: StrictBool | None = None
    inverted: StrictBool | None = None
    values: list[str] | None = None
    value: str | None = None


class VariantPayload(Record):
    type: str
    value: str


class VariantOverride(Record):
    context_name: str
    values: list[str]


class Variant(Record):
    """A strategy variant (weight an integer) or an environment variant (a number, with
    overrides). Weights are per mille: they add up to 1000 (`variant_rules`)."""

    name: str
    weight: OpenApiNumber | None = None
    weight_type: str | None = None
    stickiness: str | None = None
    payload: VariantPayload | None = None
    overrides: list[VariantOverride] | None = None


class Strategy(Record):
    """A flag's strategy in one environment, as the strategy routes and the flag's detail say
    it; with `id` None, one to add."""

    id: str | None = None
    name: str
    title: str | None = None
    disabled: bool | None = None
    feature_name: str | None = None
    sort_order: OpenApiNumber | None = None
    segments: list[OpenApiNumber] | None = None
    constraints: list[Constraint] | None = None
    variants: list[Variant] | None = None
    parameters: dict[str, Any] | None = None


class StrategyParameter(Record):
    name: str = ""  # the document requires none of a parameter's fields
    type: str | None = None
    description: str | None = None
    required: bool | None = None


class StrategyType(Record):
    """A strategy type the server offers (`GET /api/admin/strategies`) and its parameters."""

    name: str
    display_name: str | None = None
    description: str | None = None
    editable: bool | None = None
    deprecated: bool = False
    title: str | None = None
    parameters: list[StrategyParameter] = Field(default_factory=list)


class LegalValue(Record):
    value: str
    description: str | None = None


class ContextField(Record):
    """A context field constraints and stickiness can name (`GET /api/admin/context`); when it
    has legal values, a constraint on it may use only those."""

    name: str
    description: str | None = None
    stickiness: bool | None = None
    sort_order: int | None = None
    legal_values: list[LegalValue] = Field(default_factory=list)
    created_at: datetime | None = None
    used_in_features: int | None = None
    used_in_projects: int | None = None
    project: str | None = None


class ContextFieldUse(Record):
    """A strategy with a constraint on a context field (`GET /api/admin/context/:name/
    strategies`: live flags only on Unleash 7.5.1 and 8.2.0)."""

    id: str
    project_id: str
    feature_name: str
    strategy_name: str
    environment: str


class Segment(Record):
    """A reusable set of constraints a strategy attaches by id (`GET /api/admin/segments`)."""

    id: int
    name: str
    description: str | None = None
    constraints: list[Constraint] = Field(default_factory=list)
    project: str | None = None
    created_by: str | None = None
    created_at: datetime | None = None
    used_in_features: int | None = None
    used_in_projects: int | None = None
