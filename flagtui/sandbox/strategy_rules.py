"""Validation of what strategies and variants are made of, with real Unleash 8.2's rules.

Names (flags, variants): 1..100 characters that JavaScript's encodeURIComponent leaves as they
are, and not `.` or `..`. Parameters: an object of strings; numbers and booleans become strings
(real Unleash's request validation coerces them); a rollout is not range-checked (real Unleash
stores any string: the client checks 0..100). Constraints: the request schema (no other keys, a
known operator, `values` of 1..100-character strings), then per operator: string operators need
at least one value; number, date and semver operators one non-empty `value` that is a number, a
date, a strict semver; REGEX a pattern that compiles and is not inverted (compiled as the SDKs
compile it, with Rust's regex crate: real Unleash checks Go's RE2 syntax, which refuses a few
more, such as `(?x)` and `a++`, and takes quoting); a context field with legal values accepts only
those. A context field that does not exist is accepted, as real Unleash accepts it. Variants:
unique URL-friendly names, weight an integer 0..1000, weightType `variable` or `fix`, a payload
of a known type (JSON that parses for `json`); then real Unleash's `fixVariantWeights`: at least
one variable variant, fixed weights at most 1000, the rest shared out evenly among the variable
ones, sorted by name.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

import flpc

from flagtui.contract import (
    CONSTRAINT_OPERATORS,
    CONSTRAINT_VALUE_MAX,
    CONSTRAINT_VALUES_MAX,
    CONSTRAINTS_MAX,
    DATE_OPERATORS,
    INT32_MAX,
    NAME_MAX,
    NUM_OPERATORS,
    REGEX_OPERATOR,
    SEMVER_OPERATORS,
    STRING_OPERATORS,
    VARIANT_PAYLOAD_TYPES,
    VARIANT_WEIGHT_TOTAL,
    VARIANT_WEIGHT_TYPES,
    variant_order,
)
from flagtui.sandbox.catalog import CONTEXT_BY_NAME
from flagtui.sandbox.errors import ApiError, bad_request
from flagtui.sandbox.inputs import is_int

CONSTRAINT_KEYS = {"contextName", "operator", "caseInsensitive", "inverted", "values", "value"}
_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*")
# semver.org's expression: strict, so its match is the canonical form.
_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)


def check_name(value: Any, what: str = "name") -> str:
    if not isinstance(value, str):
        raise bad_request(f'"{what}" must be a string')
    if not 1 <= len(value) <= NAME_MAX:
        raise bad_request(f'"{what}" must be 1 to {NAME_MAX} characters long')
    if quote(value, safe="-_.!~*'()") != value or value in (".", ".."):
        raise bad_request(f'"{what}" must be URL friendly')
    return value


def _as_string(value: Any, what: str) -> str:
    """A JSON value where a string is expected, coerced as real Unleash's validator does."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if value is None:
        return ""
    raise bad_request(f'"{what}" must be a string')


def parameters(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise bad_request('"parameters" must be an object of strings')
    return {k: _as_string(v, f"parameters/{k}") for k, v in value.items()}


def _flag(c: dict[str, Any], key: str) -> bool:
    value = c.get(key, False)
    if not isinstance(value, bool):
        raise bad_request(f'"{key}" of a constraint must be a boolean')
    return value


def _is_date(value: str) -> bool:
    if value.strip().isdigit():
        return True
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _check_single(operator: str, value: str, inverted: bool) -> None:
    if value == "":
        raise bad_request("Single-value constraint operators require a non-empty value.")
    if operator in NUM_OPERATORS and not (_NUMBER.fullmatch(value) and math.isfinite(float(value))):
        raise bad_request(f'"value" must be a number. You provided "{value}".')
    if operator in SEMVER_OPERATORS and not _SEMVER.fullmatch(value):
        raise bad_request(
            f"the provided value is not a valid semver format. The value provided was: {value}"
        )
    if operator in DATE_OPERATORS and not _is_date(value):
        raise bad_request(f'"value" must be a valid date. You provided "{value}".')
    if operator == REGEX_OPERATOR:
        try:
            flpc.compile(value)
        except ValueError as error:
            said = str(error).strip().splitlines()[-1].removeprefix("error: ")
            message = f"the provided value is not a valid regex string. Error: {said}"
            raise bad_request(message) from None
        if inverted:
            raise bad_request("REGEX operator cannot be inverted.")


def constraint(c: Any, legal_values: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """One constraint, checked: `values` ([] when absent) and the optional keys that were sent,
    as real Unleash stores it. `legal_values`: each context field's (None: the fixed fields')."""
    if not isinstance(c, dict):
        raise bad_request("Each constraint must be an object")
    extra = set(c) - CONSTRAINT_KEYS
    if extra:
        raise bad_request(f"A constraint does not allow the property {sorted(extra)[0]}")
    context, operator = c.get("contextName"), c.get("operator")
    if not isinstance(context, str):
        raise bad_request('A constraint needs a string "contextName"')
    if operator not in CONSTRAINT_OPERATORS:
        raise bad_request(f'"operator" must be one of {", ".join(CONSTRAINT_OPERATORS)}')
    values = c.get("values", [])
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise bad_request('"values" must be an array of strings')
    if any(not 1 <= len(v) <= CONSTRAINT_VALUE_MAX for v in values):
        raise bad_request(f'Each of "values" must be 1 to {CONSTRAINT_VALUE_MAX} characters long')
    value = c.get("value", "")
    if not isinstance(value, str):
        raise bad_request('"value" must be a string')
    inverted, case_insensitive = _flag(c, "inverted"), _flag(c, "caseInsensitive")
    if operator in STRING_OPERATORS:
        if not values:
            raise bad_request('"values" must contain at least 1 items')
    else:
        _check_single(operator, value, inverted)
    if legal_values is None:  # the fixed fields, for a caller without the database's
        legal_values = {
            k: [v["value"] for v in f["legalValues"]] for k, f in CONTEXT_BY_NAME.items()
        }
    legal = legal_values.get(context) or []
    if legal:
        given = values if operator in STRING_OPERATORS else [value]
        if not all(v in legal for v in given):
            raise bad_request(
                "input values are not specified as a legal value on this context field"
            )
    required = {"contextName": context, "operator": operator, "values": values}
    optional = {"value": value, "caseInsensitive": case_insensitive, "inverted": inverted}
    return {**required, **{k: v for k, v in optional.items() if k in c}}  # stored as sent


def exceeds_limit(resource: str, limit: int) -> ApiError:
    message = (
        f"Failed to create {resource}. You can't create more than the established limit of {limit}."
    )
    return ApiError(400, message, "ExceedsLimitError")


def constraints(
    value: Any,
    existing: Sequence[Mapping[str, Any]] = (),
    legal_values: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """Checked constraints; the limits apply only to what grows (real Unleash's rule).
    `legal_values`: each context field's (`context_fields.legal_values`)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise bad_request('"constraints" must be an array')
    checked = [constraint(c, legal_values) for c in value]
    before = list(existing)
    if len(checked) > CONSTRAINTS_MAX and len(checked) > len(before):
        raise exceeds_limit("constraints", CONSTRAINTS_MAX)
    for i, c in enumerate(checked):
        had = len(before[i]["values"]) if i < len(before) and len(before) == len(checked) else 0
        if len(c["values"]) > CONSTRAINT_VALUES_MAX and len(c["values"]) > had:
            raise exceeds_limit(f"constraint values for {c['contextName']}", CONSTRAINT_VALUES_MAX)
    return checked


def _variant(v: Any, *, environment: bool) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise bad_request("Each variant must be an object")
    weight: Any = v.get("weight")
    if not is_int(weight) or not 0 <= weight <= VARIANT_WEIGHT_TOTAL:
        raise bad_request(
            f'A variant\'s "weight" must be an integer from 0 to {VARIANT_WEIGHT_TOTAL}'
        )
    weight_type = v.get("weightType", "variable" if environment else None)
    if weight_type not in VARIANT_WEIGHT_TYPES:
        raise bad_request('A variant\'s "weightType" must be "variable" or "fix"')
    stickiness = v.get("stickiness", "default" if environment else None)
    if not isinstance(stickiness, str):
        raise bad_request('A variant needs a string "stickiness"')
    out: dict[str, Any] = {
        "name": check_name(v.get("name"), "variant name"),
        "weight": weight,
        "weightType": weight_type,
        "stickiness": stickiness,
    }
    if v.get("payload") is not None:
        out["payload"] = _payload(v["payload"])
    if environment:
        out["overrides"] = _overrides(v.get("overrides", []))
    return out


def _payload(payload: Any) -> dict[str, str]:
    if not isinstance(payload, dict) or not isinstance(payload.get("value"), str):
        raise bad_request('A variant\'s "payload" needs a type and a string value')
    if payload.get("type") not in VARIANT_PAYLOAD_TYPES:
        raise bad_request(f'A payload\'s "type" must be one of {", ".join(VARIANT_PAYLOAD_TYPES)}')
    if payload["type"] == "json":
        try:
            json.loads(payload["value"])
        except ValueError:
            raise bad_request("'value' must be a valid json string when 'type' is json") from None
    return {"type": payload["type"], "value": payload["value"]}


def _overrides(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise bad_request('"overrides" must be an array')
    out = []
    for o in value:
        ok = isinstance(o, dict) and isinstance(o.get("contextName"), str)
        values = o.get("values", []) if ok else None
        if not ok or not isinstance(values, list) or not all(isinstance(x, str) for x in values):
            raise bad_request("An override needs a contextName and an array of string values")
        out.append({"contextName": o["contextName"], "values": values})
    return out


def variants(value: Any, *, environment: bool = False) -> list[dict[str, Any]]:
    """Checked variants with their weights fixed (real Unleash's `fixVariantWeights`)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise bad_request('"variants" must be an array')
    checked = [_variant(v, environment=environment) for v in value]
    names = [v["name"] for v in checked]
    if len(set(names)) != len(names):
        raise bad_request('"variants" contains a duplicate name')
    if not checked:
        return []
    variable = [v for v in checked if v["weightType"] == "variable"]
    if not variable:
        raise bad_request('There must be at least one "variable" variant')
    fixed_total = sum(v["weight"] for v in checked if v["weightType"] == "fix")
    if fixed_total > VARIANT_WEIGHT_TOTAL:
        raise bad_request("The traffic distribution total must equal 100%")
    share, remainder = divmod(VARIANT_WEIGHT_TOTAL - fixed_total, len(variable))
    for i, v in enumerate(variable):
        v["weight"] = share + (1 if i < remainder else 0)
    return sorted(checked, key=lambda v: variant_order(v["name"]))


def segment_ids(conn: Any, value: Any) -> list[int] | None:
    """None when absent (an update keeps the strategy's segments); unknown ids are a 404."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(is_int(v) for v in value):
        raise bad_request('"segments" must be an array of segment ids')
    for segment_id in value:
        known = (
            0 <= segment_id <= INT32_MAX
            and conn.execute("SELECT 1 FROM segments WHERE id = ?", (segment_id,)).fetchone()
        )
        if not known:
            raise ApiError(404, f"Could not find segment with id {segment_id}")
    return list(dict.fromkeys(value))
