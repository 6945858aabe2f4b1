"""The writes of a flag's creation and rollout, as the requests they are: built here, shown by
the TUI before sending ("exactly the request"), sent by `client.rollouts` and
`client.features.create`. Pure functions of what was already checked (`rollout_rules`).

Real Unleash's routes (6.10.1, 7.5.1 and 8.2.0 alike), under
/api/admin/projects/:p/features/:f/environments/:env:
- POST strategies (feature-strategy-add); PUT strategies/:id replaces constraints, variants,
  parameters and segments with what is sent (feature-strategy-update); PATCH strategies/:id
  applies JSON Patch operations (a strategy disabled or enabled, nothing else resent);
  DELETE strategies/:id (feature-strategy-remove); POST strategies/set-sort-order
  `[{id, sortOrder}]` (strategy-order-changed). A change that leaves the environment with no
  enabled strategy switches it off (feature-environment-disabled).
- PUT variants replaces the environment's variants (feature-environment-variants-updated);
  Unleash refuses it (403) on a flag without environment variants: they are deprecated for
  strategy variants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flagtui.api.models import Strategy, Variant
from flagtui.api.wire import seg


@dataclass(frozen=True)
class PlannedWrite:
    """One write request: what a read-only profile refuses (`action`), the request line, the
    JSON body (None: no body)."""

    action: str
    method: str
    path: str
    body: Any = None

    def shown(self) -> dict[str, Any]:
        """As `--dry-run` prints it."""
        return {"method": self.method, "path": self.path, "body": self.body}


def environment_path(project: str, feature: str, environment: str) -> str:
    """The path of a flag's environment, under which its strategies and variants are."""
    return (
        f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        f"/environments/{seg(environment)}"
    )


def strategy_body(s: Strategy) -> dict[str, Any]:
    """A strategy as Unleash's create and update schemas take it."""
    body: dict[str, Any] = {"name": s.name}
    if s.title is not None:
        body["title"] = s.title
    if s.disabled is not None:
        body["disabled"] = s.disabled
    body["parameters"] = dict(s.parameters or {})
    body["constraints"] = [
        c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in s.constraints or []
    ]
    body["segments"] = list(s.segments or [])
    body["variants"] = variants_body(s.variants or [])
    return body


def variants_body(variants: Sequence[Variant]) -> list[dict[str, Any]]:
    return [v.model_dump(mode="json", by_alias=True, exclude_none=True) for v in variants]


def add_strategy(project: str, feature: str, environment: str, s: Strategy) -> PlannedWrite:
    path = f"{environment_path(project, feature, environment)}/strategies"
    return PlannedWrite("add strategy", "POST", path, strategy_body(s))


def update_strategy(project: str, feature: str, environment: str, s: Strategy) -> PlannedWrite:
    assert s.id is not None, "an update names the strategy it replaces"
    path = f"{environment_path(project, feature, environment)}/strategies/{seg(s.id)}"
    return PlannedWrite("update strategy", "PUT", path, strategy_body(s))


def set_strategy_disabled(
    project: str, feature: str, environment: str, strategy_id: str, disabled: bool
) -> PlannedWrite:
    path = f"{environment_path(project, feature, environment)}/strategies/{seg(strategy_id)}"
    body = [{"op": "replace", "path": "/disabled", "value": disabled}]
    return PlannedWrite("disable strategy" if disabled else "enable strategy", "PATCH", path, body)


def remove_strategy(project: str, feature: str, environment: str, strategy_id: str) -> PlannedWrite:
    path = f"{environment_path(project, feature, environment)}/strategies/{seg(strategy_id)}"
    return PlannedWrite("remove strategy", "DELETE", path)


def set_strategy_order(
    project: str, feature: str, environment: str, strategy_ids: Sequence[str]
) -> PlannedWrite:
    path = f"{environment_path(project, feature, environment)}/strategies/set-sort-order"
    body = [{"id": strategy_id, "sortOrder": i} for i, strategy_id in enumerate(strategy_ids)]
    return PlannedWrite("reorder strategies", "POST", path, body)


def set_environment_variants(
    project: str, feature: str, environment: str, variants: Sequence[Variant]
) -> PlannedWrite:
    path = f"{environment_path(project, feature, environment)}/variants"
    return PlannedWrite("set variants", "PUT", path, variants_body(variants))


def create_feature(
    project: str,
    name: str,
    *,
    type: str | None = None,
    description: str | None = None,
    impression_data: bool = False,
) -> PlannedWrite:
    body: dict[str, Any] = {"name": name}
    if type is not None:
        body["type"] = type
    if description is not None:
        body["description"] = description
    body["impressionData"] = impression_data
    path = f"/api/admin/projects/{seg(project)}/features"
    return PlannedWrite("create feature", "POST", path, body)
