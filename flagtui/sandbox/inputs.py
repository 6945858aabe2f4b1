"""What a handler receives (`Call`), the validation of query parameters and JSON bodies, and
how a body is read as strict JSON (`parse_json`).

Paging rule of the browse lists (real Unleash's `normalizeQueryParams`): limit and offset
must be non-negative integers (anything else is a 400); a limit of 0 or above the maximum
falls back to the default; an offset above 2147483647 is a 400.

The integration events list pages as real Unleash's addon controller does (`lenient_page`):
nothing is refused; what is not a number in range falls back to the default.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flagtui.contract import INT32_MAX
from flagtui.sandbox.auth import Caller
from flagtui.sandbox.db import Database, dumps
from flagtui.sandbox.errors import bad_request


@dataclass(frozen=True)
class Call:
    db: Database
    caller: Caller
    path: Mapping[str, str]
    query: Mapping[str, str]
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)


def query_int(query: Mapping[str, str], name: str, default: int) -> int:
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 10 or int(raw) > INT32_MAX:
        raise bad_request(f'"{name}" must be an integer between 0 and {INT32_MAX}')
    return int(raw)


def page(query: Mapping[str, str], default_limit: int, max_limit: int) -> tuple[int, int]:
    limit = query_int(query, "limit", default_limit)
    if limit == 0 or limit > max_limit:
        limit = default_limit
    return limit, query_int(query, "offset", 0)


_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_RADIX = {"x": 16, "o": 8, "b": 2}
# Beyond this SQLite's OFFSET overflows; no table comes near it.
_SQLITE_OFFSET_MAX = 2**62


def _js_number(raw: str) -> float:
    """JavaScript's `Number(raw)`, which real Unleash applies to these parameters."""
    text = raw.strip()
    if not text:
        return 0.0
    if _DECIMAL.fullmatch(text):
        return float(text)
    if text.lstrip("+-") == "Infinity":
        return -math.inf if text.startswith("-") else math.inf
    radix = _RADIX.get(text[1:2].lower()) if text[:1] == "0" else None
    if radix is not None:
        try:
            return float(int(text[2:], radix))
        except ValueError:
            return math.nan
    return math.nan


def lenient_page(query: Mapping[str, str], default_limit: int, max_limit: int) -> tuple[int, int]:
    """Real Unleash's integration events paging: a limit that is not a number in
    (0, max_limit] is the default, an offset that is not a positive number is 0; fractions
    are cut off, as its query builder does."""
    limit = _js_number(query.get("limit", str(default_limit)))
    offset = _js_number(query.get("offset", "0"))
    page_limit = math.trunc(limit) if 0 < limit <= max_limit else default_limit
    page_offset = min(math.trunc(offset), _SQLITE_OFFSET_MAX) if 0 < offset < math.inf else 0
    return page_limit, page_offset


@dataclass(frozen=True)
class Filter:
    """A browse filter such as `IS:value` or `IS_ANY_OF:a,b` (and the negations)."""

    values: tuple[str, ...]
    negated: bool


def query_filter(query: Mapping[str, str], name: str) -> Filter | None:
    raw = query.get(name)
    if raw is None or raw == "":
        return None
    operator, sep, rest = raw.partition(":")
    if not sep or operator not in ("IS", "IS_NOT", "IS_ANY_OF", "IS_NONE_OF"):
        raise bad_request(f'"{name}" must look like IS:value or IS_ANY_OF:a,b')
    values = tuple(rest.split(",")) if operator.endswith("_OF") else (rest,)
    return Filter(values=values, negated=operator in ("IS_NOT", "IS_NONE_OF"))


def require_object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise bad_request("The request body must be a JSON object")
    return body


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def int_list(body: dict[str, Any], key: str) -> list[int]:
    value = body.get(key)
    if not isinstance(value, list) or not all(is_int(v) for v in value):
        raise bad_request(f'"{key}" must be an array of integers')
    if any(not 0 <= v <= INT32_MAX for v in value):
        raise bad_request(f'"{key}" holds an id out of range')
    return list(dict.fromkeys(value))


def optional_str(body: dict[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is not None and not isinstance(value, str):
        raise bad_request(f'"{key}" must be a string')
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def parse_json(raw: bytes) -> Any:
    if not raw.strip():
        raise bad_request("A JSON request body is required")
    try:
        value = json.loads(raw, parse_constant=_reject_constant, parse_float=_finite_float)
        dumps(value).encode("utf-8")  # refuses lone surrogates, which SQLite cannot store
    except (ValueError, RecursionError, UnicodeError) as error:
        raise bad_request(f"The request body is not valid JSON: {error}") from None
    return value


def is_json(content_type: str | None) -> bool:
    return (content_type or "").split(";")[0].strip().lower() == "application/json"
