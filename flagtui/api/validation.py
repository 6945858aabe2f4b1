"""The contract's limits, checked before any request is built."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from flagtui.api.errors import InvalidArgument
from flagtui.contract import (
    EVENT_SEARCH_MAX,
    MAX_LIFETIME_DAYS,
    MIN_USER_QUERY,
    NAME_MAX,
    PATCH_OPS,
    PATCH_OPS_WITH_FROM,
    PATCH_OPS_WITH_VALUE,
    is_flag_name,
)

if TYPE_CHECKING:  # the models (pydantic) only for a patch: a search's checks need neither
    from flagtui.api.models import PatchOperation


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def lifetime_days(value: object) -> int | None:
    if value is None:
        return None
    if not _is_int(value) or not 0 <= value <= MAX_LIFETIME_DAYS:  # type: ignore[operator]
        raise InvalidArgument(
            "lifetimeDays", f"an integer from 0 to {MAX_LIFETIME_DAYS}, or null (never)"
        )
    return value  # type: ignore[return-value]


def user_query(q: str) -> str:
    if len(q.strip()) < MIN_USER_QUERY:
        raise InvalidArgument("q", f"at least {MIN_USER_QUERY} characters")
    return q.strip()


def event_search_limit(limit: object) -> int:
    if not _is_int(limit) or not 1 <= limit <= EVENT_SEARCH_MAX:  # type: ignore[operator]
        raise InvalidArgument("limit", f"an integer from 1 to {EVENT_SEARCH_MAX}")
    return limit  # type: ignore[return-value]


def non_negative(field: str, value: object) -> int:
    if not _is_int(value) or value < 0:  # type: ignore[operator]
        raise InvalidArgument(field, "a non-negative integer")
    return value  # type: ignore[return-value]


def integer(field: str, value: object) -> int:
    """Any integer: user ids may be negative (real Unleash's admin token acts as -42)."""
    if not _is_int(value):
        raise InvalidArgument(field, "an integer (a user id)")
    return value  # type: ignore[return-value]


def id_list(field: str, values: Iterable[object]) -> list[int]:
    ids = list(values)
    if not all(_is_int(v) and v >= 0 for v in ids):  # type: ignore[operator]
        raise InvalidArgument(field, "a list of integer ids")
    return ids  # type: ignore[return-value]


MAX_JSON_DEPTH = 100  # nesting of a value we send; a flag's metadata needs a few levels at most


def query_params(params: Mapping[str, object]) -> None:
    """Text a URL cannot carry (a lone surrogate from a non-UTF-8 argv) is refused, naming its
    parameter, before anything is sent."""
    for name, value in params.items():
        json_value(name, value)


def json_value(field: str, value: object) -> object:
    """A value JSON can carry, which Python's json.loads does not promise: no NaN or Infinity
    (JSON has neither), no lone surrogate in text (not encodable as UTF-8), nested at most
    MAX_JSON_DEPTH levels (far deeper, encoding fails on recursion). Walked without recursion."""
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            said = "NaN" if math.isnan(item) else ("-Infinity" if item < 0 else "Infinity")
            raise InvalidArgument(field, f"{said} is not a JSON value")
        if isinstance(item, str) and not _is_utf8_text(item):
            raise InvalidArgument(field, "holds text that is not valid UTF-8 (a lone surrogate)")
        if isinstance(item, Mapping | list | tuple):
            if depth > MAX_JSON_DEPTH:
                raise InvalidArgument(field, f"nested deeper than {MAX_JSON_DEPTH} levels")
            children = [*item.keys(), *item.values()] if isinstance(item, Mapping) else item
            pending.extend((child, depth + 1) for child in children)
    return value


def _is_utf8_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def patch_operations(ops: Iterable[PatchOperation | Mapping[str, Any]]) -> list[PatchOperation]:
    """Each op: a known op, a JSON pointer path, `from` for copy/move, `value` for add/replace."""
    # Here, not at the top: it loads pydantic
    from pydantic import ValidationError as PydanticValidationError

    from flagtui.api.models import PatchOperation

    checked: list[PatchOperation] = []
    for index, raw in enumerate(ops):
        where = f"patch[{index}]"
        if isinstance(raw, PatchOperation):
            op = raw
            has_value = "value" in raw.model_fields_set
        else:
            if not isinstance(raw, Mapping):
                raise InvalidArgument(where, "an object with op and path")
            if raw.get("op") not in PATCH_OPS:
                raise InvalidArgument(f"{where}.op", f"one of {', '.join(PATCH_OPS)}")
            try:
                op = PatchOperation.model_validate(raw)
            except PydanticValidationError as exc:
                first = exc.errors()[0]
                field = ".".join(str(p) for p in first["loc"]) or "op"
                raise InvalidArgument(f"{where}.{field}", first["msg"]) from None
            has_value = "value" in raw
        if not op.path.startswith("/"):
            raise InvalidArgument(f"{where}.path", "a JSON pointer starting with /")
        if op.op in PATCH_OPS_WITH_FROM and not (op.from_ and op.from_.startswith("/")):
            raise InvalidArgument(f"{where}.from", f"required for {op.op}: a JSON pointer")
        if op.op in PATCH_OPS_WITH_VALUE and not has_value:
            raise InvalidArgument(f"{where}.value", f"required for {op.op}")
        for text_field, text in (("path", op.path), ("from", op.from_ or "")):
            json_value(f"{where}.{text_field}", text)
        json_value(f"{where}.value", op.value)
        checked.append(op)
    if not checked:
        raise InvalidArgument("patch", "at least one operation")
    return checked


def name(field: str, value: object) -> str:
    """A name that goes into a path or a body (environment, feature): a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(field, "a non-empty name")
    return value


def flag_name(value: object, *, field: str = "name") -> str:
    """A flag's (or a variant's) name as Unleash takes it: 1 to NAME_MAX URL-friendly
    characters (letters, digits and - _ . ! ~ * ' ( )), not `.` or `..`."""
    if not isinstance(value, str) or not 1 <= len(value) <= NAME_MAX:
        raise InvalidArgument(field, f"a flag name of 1 to {NAME_MAX} characters")
    if not is_flag_name(value):
        raise InvalidArgument(
            field, "a flag name of letters, digits and - _ . ! ~ * ' ( ) only (URL-friendly)"
        )
    return value
