"""A strategy, checked before anything is sent: pure functions over the server's catalog
(`RolloutCatalog`), each refusal an InvalidArgument naming the field and the limit.

- The type is one the server lists (`GET /api/admin/strategies`); a deprecated one is not
  offered for a new strategy (an existing one keeps it).
- Parameters are the type's, sent as strings (Unleash's parametersSchema): a `percentage` is an
  integer from 0 to 100 (real Unleash stores any string as a rollout, which the SDKs then read
  as they can: the range is checked here), a `number` a number, a `boolean` true or false, a
  `list` comma-separated; a required one is given. A gradual rollout (flexibleRollout) gets
  the defaults Unleash gives it (rollout 100, stickiness default, the flag's name as its
  group), so the request shown is what Unleash stores; its stickiness is `default`, `random`
  or a context field (one the server does not list: accepted with a warning, `unlisted_fields`).
- Segments are ids of the server's segments (`segment_ids` finds them by name).
- Constraints: `constraint_rules`; variants: `variant_rules`.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping
from typing import Any

from flagtui.api import constraint_rules, variant_rules
from flagtui.api.errors import InvalidArgument
from flagtui.api.models import Strategy, StrategyType
from flagtui.api.rollout_catalog import RolloutCatalog

FLEXIBLE_ROLLOUT = "flexibleRollout"
ROLLOUT_MAX = 100


def rollout(value: object, *, where: str = "parameters.rollout") -> int:
    """A rollout percentage: a whole number from 0 to 100 (an integer, or its digits)."""
    number = value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        number = int(value.strip())
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= ROLLOUT_MAX:
        raise InvalidArgument(where, f"a whole percentage from 0 to {ROLLOUT_MAX}, not {value!r}")
    return number


def strategy_type(name: str, catalog: RolloutCatalog, *, adding: bool) -> StrategyType:
    found = catalog.strategy_type(name)
    offered = [t.name for t in catalog.strategy_types if not t.deprecated]
    if found is None:
        close = difflib.get_close_matches(name, offered, n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        said = f"{name!r} is not a strategy type of this server; {hint}one of {', '.join(offered)}"
        raise InvalidArgument("name", said)
    if found.deprecated and adding:
        said = f"{name} is deprecated on this server; one of {', '.join(offered)}"
        raise InvalidArgument("name", said)
    return found


def segment_ids(wanted: Iterable[float | str], catalog: RolloutCatalog) -> list[int]:
    """Segments by id or name, as the ids a strategy sends (each once, in the order given)."""
    ids: list[int] = []
    for i, key in enumerate(wanted):
        found = catalog.segment(key)
        if found is None:
            names = ", ".join(s.name for s in catalog.segments) or "none"
            said = f"no segment {key!r} on this server (its segments: {names})"
            raise InvalidArgument(f"segments[{i}]", said)
        if found.id not in ids:
            ids.append(found.id)
    return ids


def strategy(
    given: Strategy,
    catalog: RolloutCatalog,
    *,
    feature: str,
    existing: Strategy | None = None,
) -> Strategy:
    """The strategy as it will be sent (added when `existing` is None, else replacing it):
    every part checked, parameters as strings with a gradual rollout's defaults."""
    kind = strategy_type(given.name, catalog, adding=existing is None)
    parameters = _parameters(kind, given.parameters or {}, feature)
    sticky = parameters.get("stickiness", "default")
    return Strategy(
        id=existing.id if existing else None,
        name=kind.name,
        title=given.title,
        disabled=given.disabled,
        parameters=parameters,
        constraints=constraint_rules.constraints(given.constraints or [], catalog),
        segments=segment_ids(given.segments or [], catalog),
        variants=variant_rules.variants(given.variants or [], catalog, default_stickiness=sticky),
    )


def unlisted_fields(checked: Strategy, catalog: RolloutCatalog) -> list[tuple[str, str]]:
    """(field, warning) for each context field a checked strategy names that the server does
    not list (its constraints, its stickiness, its variants'): Unleash accepts them, and they
    work only where the SDKs send that field."""
    found: list[tuple[str, str]] = []
    for i, c in enumerate(checked.constraints or []):
        warned = constraint_rules.unlisted(c.context_name, catalog)
        found += [(f"constraints[{i}].contextName", warned)] if warned else []
    sticky = (checked.parameters or {}).get("stickiness")
    if sticky and sticky not in variant_rules.BUILT_IN_STICKINESS:
        warned = constraint_rules.unlisted(sticky, catalog)
        found += [("parameters.stickiness", warned)] if warned else []
    variants = checked.variants or []
    if variants and variants[0].stickiness != sticky:  # said once when it is the strategy's
        found += variant_rules.unlisted_fields(variants, catalog)
    return found


def _parameters(kind: StrategyType, given: Mapping[str, Any], feature: str) -> dict[str, str]:
    declared = {p.name: p for p in kind.parameters}
    if kind.name == FLEXIBLE_ROLLOUT:
        given = {"rollout": "100", "stickiness": "default", "groupId": feature, **given}
    out: dict[str, str] = {}
    for key, value in given.items():
        where = f"parameters.{key}"
        spec = declared.get(key)
        if spec is None and declared:
            said = f"not a parameter of {kind.name}; its parameters: {', '.join(declared)}"
            raise InvalidArgument(where, said)
        is_rollout = kind.name == FLEXIBLE_ROLLOUT and key == "rollout"
        kind_of = "percentage" if is_rollout else (spec.type if spec else None)
        out[key] = _parameter(kind_of, value, where)
    if kind.name == FLEXIBLE_ROLLOUT:
        out["stickiness"] = variant_rules.stickiness(
            out["stickiness"], where="parameters.stickiness"
        )
        if not out["groupId"].strip():
            raise InvalidArgument("parameters.groupId", "a non-empty group id")
    for spec in kind.parameters:
        if spec.required and not out.get(spec.name, "").strip():
            raise InvalidArgument(f"parameters.{spec.name}", f"required by {kind.name}")
    return out


def _parameter(kind: str | None, value: object, where: str) -> str:
    if kind == "percentage":
        return str(rollout(value, where=where))
    if isinstance(value, bool):
        value = "true" if value else "false"
    if isinstance(value, int | float):
        value = str(value)
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        value = ",".join(value)
    if not isinstance(value, str):
        raise InvalidArgument(where, "a string (or a number, a boolean, a list of strings)")
    if kind == "number":
        try:
            finite = math.isfinite(float(value))
        except ValueError:
            finite = False
        if not finite:
            raise InvalidArgument(where, f"a number, not {value!r}")
    if kind == "boolean" and value not in ("true", "false"):
        raise InvalidArgument(where, f"true or false, not {value!r}")
    return value
