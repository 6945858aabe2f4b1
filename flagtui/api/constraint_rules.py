"""A strategy's constraints, checked before anything is sent: pure functions over the server's
catalog (`RolloutCatalog`), each refusal an InvalidArgument naming the field and the limit.

What real Unleash refuses, checked here first: a known operator; string operators (IN, NOT_IN,
STR_*) with at least one value; the others with one non-empty `value` of their kind: a number,
a strict semantic version, a date, a regular expression (RE2: no lookaround, no
backreferences) that is not inverted; on a context field with legal values, only those. Per
version: REGEX came in Unleash 7.x and SEMVER_GTE/SEMVER_LTE in 8.x (6.10.1 refuses both, 7.5.1
the second); 8.2.0's request schema takes `values` of 1 to 100 characters.

What real Unleash accepts but an admin does not mean, refused too: a context field the server
does not list (a typo: the constraint would compare a property no application sends), date
operators on any field but currentTime and other operators on currentTime (what Unleash's
web UI offers), and a date without its time and zone (the value is compared as an instant).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from flagtui.api import capabilities
from flagtui.api.errors import InvalidArgument
from flagtui.api.models import Constraint, ContextField, ServerInfo
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.contract import (
    CONSTRAINT_OPERATORS,
    CONSTRAINT_VALUE_MAX,
    DATE_OPERATORS,
    NUM_OPERATORS,
    REGEX_OPERATOR,
    SEMVER_OPERATORS,
    STRING_OPERATORS,
)

CURRENT_TIME = "currentTime"
OPERATOR_SINCE: dict[str, capabilities.Version] = {
    REGEX_OPERATOR: (7, 0, 0),
    "SEMVER_GTE": (8, 0, 0),
    "SEMVER_LTE": (8, 0, 0),
}
VALUE_LENGTH_SINCE: capabilities.Version = (8, 2, 0)

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
# semver.org's expression: a strict version, as Unleash's `semver.valid` wants.
_SEMVER = re.compile(
    r"(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)"
    r"(?:-(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?"
    r"(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?"
)
_NOT_RE2 = re.compile(r"\(\?<?[=!]|\\[1-9]")  # lookaround and backreferences
_KINDS = [
    (NUM_OPERATORS, "a number, e.g. 42 or 0.5"),
    (SEMVER_OPERATORS, "a semantic version, e.g. 1.2.3 or 2.0.0-beta.1"),
    (DATE_OPERATORS, "a date and time with its zone, e.g. 2026-01-31T09:00:00Z"),
    ((REGEX_OPERATOR,), "a regular expression (RE2: no lookaround, no backreferences)"),
]


def operators_for(field: ContextField, server: ServerInfo | None) -> tuple[str, ...]:
    """The operators a constraint on `field` may use on this server, in Unleash's order."""
    dates = field.name == CURRENT_TIME
    return tuple(
        op
        for op in CONSTRAINT_OPERATORS
        if (op in DATE_OPERATORS) == dates
        and capabilities.at_least(server, OPERATOR_SINCE.get(op, (0, 0, 0)))
    )


def is_multi_value(operator: str) -> bool:
    """True for the operators that compare a list (`values`), False for one `value`."""
    return operator in STRING_OPERATORS


def constraints(
    given: Iterable[Constraint],
    catalog: RolloutCatalog,
    *,
    where: str = "constraints",
    kept: Sequence[Constraint] = (),
) -> list[Constraint]:
    """Each constraint checked (`constraint`); `kept` are those the strategy already holds:
    one of them left as it is may name a context field the server no longer lists."""
    return [
        constraint(c, catalog, where=f"{where}[{i}]", kept=c in kept) for i, c in enumerate(given)
    ]


def constraint(
    c: Constraint, catalog: RolloutCatalog, *, where: str = "constraint", kept: bool = False
) -> Constraint:
    """The constraint as it will be sent: `values` for string operators, `value` otherwise."""
    field = catalog.context_field(c.context_name)
    if field is None and not kept:
        raise InvalidArgument(f"{where}.contextName", _unknown_field(c.context_name, catalog))
    operator = c.operator
    if operator not in CONSTRAINT_OPERATORS:
        close = difflib.get_close_matches(operator.upper(), CONSTRAINT_OPERATORS, n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        known = ", ".join(CONSTRAINT_OPERATORS)
        raise InvalidArgument(f"{where}.operator", f"{operator!r} is no operator; {hint}{known}")
    if field is not None and operator not in (allowed := operators_for(field, catalog.server)):
        raise InvalidArgument(f"{where}.operator", _not_allowed(operator, field, allowed, catalog))
    values = _values(c, operator, where)
    lengths = is_multi_value(operator) and capabilities.at_least(catalog.server, VALUE_LENGTH_SINCE)
    legal = [v.value for v in field.legal_values] if field else []
    for i, value in enumerate(values):
        named = f"{where}.values[{i}]" if is_multi_value(operator) else f"{where}.value"
        if lengths and not 1 <= len(value) <= CONSTRAINT_VALUE_MAX:
            raise InvalidArgument(named, f"1 to {CONSTRAINT_VALUE_MAX} characters")
        if legal and value not in legal:
            said = f"{value!r} is not a legal value of {c.context_name}: {', '.join(legal)}"
            raise InvalidArgument(named, said)
    if operator == REGEX_OPERATOR and c.inverted:
        raise InvalidArgument(f"{where}.inverted", "a REGEX constraint cannot be inverted")
    shared = {"context_name": c.context_name, "operator": operator}
    flags = {"inverted": c.inverted or None, "case_insensitive": c.case_insensitive or None}
    flags = {k: v for k, v in flags.items() if v}
    if is_multi_value(operator):
        return Constraint(**shared, values=values, **flags)
    return Constraint(**shared, value=values[0], **flags)


def _values(c: Constraint, operator: str, where: str) -> list[str]:
    if is_multi_value(operator):
        if not c.values:
            raise InvalidArgument(f"{where}.values", f"{operator} needs at least one value")
        return list(c.values)
    value = c.value if c.value is not None else (c.values[0] if c.values else "")
    if not value or (c.values and len(c.values) > 1):
        raise InvalidArgument(f"{where}.value", f"{operator} compares exactly one value")
    kind = next(said for ops, said in _KINDS if operator in ops)
    if not _is_of_kind(operator, value):
        raise InvalidArgument(f"{where}.value", f"{value!r} is not {kind}")
    return [value]


def _is_of_kind(operator: str, value: str) -> bool:
    if operator in NUM_OPERATORS:
        return bool(_NUMBER.fullmatch(value)) and math.isfinite(float(value))
    if operator in SEMVER_OPERATORS:
        return bool(_SEMVER.fullmatch(value))
    if operator in DATE_OPERATORS:
        try:
            when = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            return False
        return "T" in value.upper() and when.tzinfo is not None
    try:
        re.compile(value)
    except re.error:
        return False
    return not _NOT_RE2.search(value)


def _unknown_field(name: str, catalog: RolloutCatalog) -> str:
    names = [f.name for f in catalog.context_fields]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    shown = ", ".join(names[:20]) + (", …" if len(names) > 20 else "")
    return f"{name!r} is not a context field of this server; {hint}its fields: {shown}"


def _not_allowed(
    operator: str, field: ContextField, allowed: Sequence[str], catalog: RolloutCatalog
) -> str:
    since = OPERATOR_SINCE.get(operator)
    if since and not capabilities.at_least(catalog.server, since):
        server = catalog.server.label if catalog.server else "this server"
        return f"{operator} needs Unleash {capabilities.version_text(since)} ({server})"
    return f"{field.name} takes {', '.join(allowed)}"
