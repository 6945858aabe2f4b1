"""Variants (a strategy's, or an environment's), checked before anything is sent, with real
Unleash's weights: pure functions, each refusal an InvalidArgument naming the field.

Weights are per mille and add up to 1000. A variant is `fix` (it gets exactly its weight) or
`variable` (the variable ones share what the fixed ones leave, evenly, the first ones getting
the remainder: Unleash's `fixVariantWeights`). So the fixed weights add up to at most 1000 and
at least one variant is variable. When every variant is given a fixed weight, those weights
must add up to exactly 1000; the last one is then sent as variable, and gets exactly its
weight (Unleash refuses a list without a variable variant). The weights sent are the ones
Unleash will store, so the request shown is the distribution.

Also: names 1 to 100 URL-friendly characters, unique; one stickiness for all (`default`,
`random`, or a context field of the server); a payload of a known type that parses as one
(`json`, `number`); an environment variant's overrides name context fields of the server.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from flagtui.api import validation
from flagtui.api.errors import InvalidArgument
from flagtui.api.models import Variant, VariantOverride, VariantPayload
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.contract import VARIANT_PAYLOAD_TYPES, VARIANT_WEIGHT_TOTAL, VARIANT_WEIGHT_TYPES

BUILT_IN_STICKINESS = ("default", "random")


def stickiness(value: str, catalog: RolloutCatalog, *, where: str = "stickiness") -> str:
    """`default`, `random`, or a context field the server lists (what an SDK hashes on)."""
    if value in BUILT_IN_STICKINESS or catalog.context_field(value) is not None:
        return value
    fields = ", ".join(f.name for f in catalog.context_fields)
    said = f"{value!r} is not default, random or a context field of this server ({fields})"
    raise InvalidArgument(where, said)


def variants(
    given: Sequence[Variant],
    catalog: RolloutCatalog,
    *,
    where: str = "variants",
    default_stickiness: str = "default",
    environment: bool = False,
) -> list[Variant]:
    """The variants as they will be sent: checked, their weights those Unleash will store."""
    if not given:
        return []
    names = [_name(v.name, f"{where}[{i}].name") for i, v in enumerate(given)]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InvalidArgument(f"{where}[{i}].name", f"{name!r} is given twice")
    sticky = given[0].stickiness or default_stickiness
    for i, v in enumerate(given):
        if (v.stickiness or sticky) != sticky:
            said = f"every variant has one stickiness: {sticky!r} (the first variant's)"
            raise InvalidArgument(f"{where}[{i}].stickiness", said)
    stickiness(sticky, catalog, where=f"{where}[0].stickiness")
    fixed = [_fixed_weight(v, f"{where}[{i}]") for i, v in enumerate(given)]
    weights = _weights(fixed, where)
    return [
        Variant(
            name=v.name,
            weight=weight,
            weight_type="fix" if fix is not None and i != _sent_variable(fixed) else "variable",
            stickiness=sticky,
            payload=_payload(v.payload, f"{where}[{i}].payload"),
            overrides=_overrides(v.overrides, catalog, f"{where}[{i}].overrides")
            if environment
            else None,
        )
        for i, (v, fix, weight) in enumerate(zip(given, fixed, weights, strict=True))
    ]


def _name(name: str, where: str) -> str:
    try:
        return validation.flag_name(name, field=where)
    except InvalidArgument as exc:
        raise InvalidArgument(where, exc.limit.replace("a flag name", "a variant name")) from None


def _fixed_weight(v: Variant, where: str) -> int | None:
    """The variant's fixed weight, or None for a variable one."""
    kind = v.weight_type or "variable"
    if kind not in VARIANT_WEIGHT_TYPES:
        raise InvalidArgument(f"{where}.weightType", " or ".join(VARIANT_WEIGHT_TYPES))
    if kind == "variable":
        return None
    weight = v.weight
    if not isinstance(weight, int) or not 0 <= weight <= VARIANT_WEIGHT_TOTAL:
        said = f"an integer from 0 to {VARIANT_WEIGHT_TOTAL} (per mille: 500 is 50 %)"
        raise InvalidArgument(f"{where}.weight", said)
    return weight


def _sent_variable(fixed: Sequence[int | None]) -> int | None:
    """The index of the fixed variant sent as variable: the last one, when all are fixed."""
    return len(fixed) - 1 if all(f is not None for f in fixed) else None


def _weights(fixed: Sequence[int | None], where: str) -> list[int]:
    total = sum(f for f in fixed if f is not None)
    if all(f is not None for f in fixed):
        if total != VARIANT_WEIGHT_TOTAL:
            said = (
                f"the weights add up to {total}, not {VARIANT_WEIGHT_TOTAL} (per mille); "
                "or leave one variant without a weight to take the rest"
            )
            raise InvalidArgument(f"{where}.weight", said)
        return [f for f in fixed if f is not None]
    if total > VARIANT_WEIGHT_TOTAL:
        said = f"the fixed weights add up to {total}, over {VARIANT_WEIGHT_TOTAL} (per mille)"
        raise InvalidArgument(f"{where}.weight", said)
    variable = sum(1 for f in fixed if f is None)
    share, remainder = divmod(VARIANT_WEIGHT_TOTAL - total, variable)
    weights, seen = [], 0
    for f in fixed:
        if f is None:
            weights.append(share + (1 if seen < remainder else 0))
            seen += 1
        else:
            weights.append(f)
    return weights


def _payload(payload: VariantPayload | None, where: str) -> VariantPayload | None:
    if payload is None:
        return None
    if payload.type not in VARIANT_PAYLOAD_TYPES:
        raise InvalidArgument(f"{where}.type", f"one of {', '.join(VARIANT_PAYLOAD_TYPES)}")
    if payload.type in ("json", "number"):
        try:
            parsed = json.loads(payload.value)
        except (ValueError, RecursionError):
            raise InvalidArgument(f"{where}.value", f"not valid {payload.type}") from None
        if payload.type == "number" and (
            isinstance(parsed, bool) or not isinstance(parsed, int | float)
        ):
            raise InvalidArgument(f"{where}.value", "not a number")
    return payload


def _overrides(
    given: Sequence[VariantOverride] | None, catalog: RolloutCatalog, where: str
) -> list[VariantOverride]:
    for i, override in enumerate(given or []):
        if catalog.context_field(override.context_name) is None:
            said = f"{override.context_name!r} is not a context field of this server"
            raise InvalidArgument(f"{where}[{i}].contextName", said)
    return list(given or [])
