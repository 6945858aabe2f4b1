"""Variants (a strategy's, or an environment's), checked before anything is sent, with real
Unleash's weights: pure functions, each refusal an InvalidArgument naming the field.

Weights are per mille and add up to 1000. A variant is `fix` (it gets exactly its weight) or
`variable` (the variable ones share what the fixed ones leave, evenly, the first ones getting
the remainder: Unleash's `fixVariantWeights`). So the fixed weights add up to at most 1000 and
at least one variant is variable. When every variant is given a fixed weight, those weights
must add up to exactly 1000; the last one is then sent as variable, and gets exactly its
weight (Unleash refuses a list without a variable variant). A variable variant the fixed ones
leave nothing for would get weight 0, which nobody typed: refused. The weights sent are the
ones Unleash will store, so the request shown is the distribution.

Also: names 1 to 100 URL-friendly characters, unique; one stickiness for all (`default`,
`random`, or a context field: one the server does not list is accepted, as Unleash accepts it,
with a warning, `unlisted_fields`); a payload of a known type that parses as one (`json` as
standard JSON, `number` a finite one: the SDKs' JSON has no NaN nor Infinity).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from flagtui.api import constraint_rules, validation
from flagtui.api.errors import InvalidArgument
from flagtui.api.models import Variant, VariantOverride, VariantPayload
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.contract import VARIANT_PAYLOAD_TYPES, VARIANT_WEIGHT_TOTAL, VARIANT_WEIGHT_TYPES

BUILT_IN_STICKINESS = ("default", "random")
_DOUBLE_MAX = 1.7976931348623157e308


def stickiness(value: str, *, where: str = "stickiness") -> str:
    """`default`, `random`, or a context field (what an SDK hashes on): any name but an empty
    one, as Unleash takes it; one the server does not list is warned of (`unlisted_fields`)."""
    if not value.strip():
        raise InvalidArgument(where, "default, random or the name of a context field")
    return value


def unlisted_fields(
    checked: Sequence[Variant], catalog: RolloutCatalog, *, where: str = "variants"
) -> list[tuple[str, str]]:
    """(field, warning) for each context field the variants name that the server does not
    list: their stickiness (said once, on the first) and each override's."""
    found: list[tuple[str, str]] = []
    sticky = checked[0].stickiness if checked else None
    if sticky and sticky not in BUILT_IN_STICKINESS:
        warned = constraint_rules.unlisted(sticky, catalog)
        found += [(f"{where}[0].stickiness", warned)] if warned else []
    for i, v in enumerate(checked):
        for j, override in enumerate(v.overrides or []):
            warned = constraint_rules.unlisted(override.context_name, catalog)
            found += [(f"{where}[{i}].overrides[{j}].contextName", warned)] if warned else []
    return found


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
    stickiness(sticky, where=f"{where}[0].stickiness")
    fixed = [_fixed_weight(v, f"{where}[{i}]") for i, v in enumerate(given)]
    weights = _weights(fixed, where)
    for i, (fix, weight) in enumerate(
        zip(fixed, weights, strict=True)  # pragma: no mutate (equal lengths)
    ):
        if fix is None and weight == 0:
            left = VARIANT_WEIGHT_TOTAL - sum(f for f in fixed if f is not None)
            said = (
                f"the fixed weights leave {left} per mille for {fixed.count(None)} variants"
                " without a weight: this one would get 0; lower a fixed weight"
            )
            raise InvalidArgument(f"{where}[{i}].weight", said)
    return [
        Variant(
            name=v.name,
            weight=weight,
            weight_type="fix" if fix is not None and i != _sent_variable(fixed) else "variable",
            stickiness=sticky,
            payload=_payload(v.payload, f"{where}[{i}].payload"),
            overrides=_overrides(v.overrides, f"{where}[{i}].overrides") if environment else None,
        )
        for i, (v, fix, weight) in enumerate(
            zip(given, fixed, weights, strict=True)  # pragma: no mutate (equal lengths)
        )
    ]


def _name(name: str, where: str) -> str:
    try:
        return validation.flag_name(name, field=where)  # pragma: no mutate (re-raised with where)
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
            parsed = json.loads(payload.value, parse_constant=_not_json)
        except (ValueError, RecursionError):
            raise InvalidArgument(f"{where}.value", f"not valid {payload.type}") from None
        if payload.type == "number" and (
            isinstance(parsed, bool) or not isinstance(parsed, int | float)
        ):
            raise InvalidArgument(f"{where}.value", "not a number")
        if not _finite(parsed):
            said = f"{payload.type}: a number too large for the SDKs (over about 1.8e308)"
            raise InvalidArgument(f"{where}.value", said)
    return payload


def _not_json(constant: str) -> None:
    """NaN, Infinity and -Infinity: Python's JSON reads them, the SDKs' (JSON.parse) do not."""
    raise ValueError(constant)  # pragma: no mutate (the message is not read)


def _finite(parsed: object) -> bool:
    """No number in it overflows a double (1e309 reads as infinity in every SDK)."""
    if isinstance(parsed, float):
        return math.isfinite(parsed)
    if isinstance(parsed, int):  # digits past a double's range: JSON.parse reads Infinity
        return abs(parsed) <= _DOUBLE_MAX
    if isinstance(parsed, dict):
        return all(_finite(v) for v in parsed.values())
    if isinstance(parsed, list):
        return all(_finite(v) for v in parsed)
    return True


def _overrides(given: Sequence[VariantOverride] | None, where: str) -> list[VariantOverride]:
    for i, override in enumerate(given or []):
        if not override.context_name.strip():
            raise InvalidArgument(f"{where}[{i}].contextName", "the name of a context field")
    return list(given or [])
