"""A strategy's constraints, checked before anything is sent: pure functions over the server's
catalog (`RolloutCatalog`), each refusal an InvalidArgument naming the field and the limit.

What real Unleash or the SDKs refuse, checked here first: a known operator; string operators
(IN, NOT_IN, STR_*) with at least one value; the others with one non-empty `value` of their
kind: a number, a strict semantic version, a date, a regular expression the SDKs' engine can
evaluate (`regex_error`) that is not inverted; `value` and `values` not both given; on a context
field with legal values, only those. Per version: REGEX came in Unleash 7.x and
SEMVER_GTE/SEMVER_LTE in 8.x (6.10.1 refuses both, 7.5.1 the second); 8.2.0's request schema
takes `values` of 1 to 100 characters.

What real Unleash accepts but an admin does not mean, refused too: date operators on any field
but currentTime and other operators on currentTime (what Unleash's web UI offers), and a date
without its time and zone (the value is compared as an instant). A context field the server
does not list is accepted, as Unleash 7 and later accept it (SDKs send `remoteAddress` and any
property an application sets), with a warning (`unlisted`): the constraint compares what SDKs
send. Unleash 6 refuses such a constraint (404), so it is refused there.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

import flpc

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
# A constraint on a context field the server does not list: 6.10.1 answers 404, 7.5.1 stores it.
UNLISTED_SINCE: capabilities.Version = (7, 0, 0)

_DATE_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?(?:Z|[+-]\d{2}:\d{2})")
_CONTEXT_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})"
)
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
# semver.org's expression: a strict version, as Unleash's `semver.valid` wants.
_SEMVER = re.compile(
    r"(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)"
    r"(?:-(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?"
    r"(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?"
)
_KINDS = [
    (NUM_OPERATORS, "a number, e.g. 42 or 0.5"),
    (SEMVER_OPERATORS, "a semantic version, e.g. 1.2.3 or 2.0.0-beta.1"),
    (DATE_OPERATORS, "a date and time with its zone, e.g. 2026-01-31T09:00:00Z or …:00.000+02:00"),
    ((REGEX_OPERATOR,), "a regular expression the SDKs can evaluate (Rust regex syntax)"),
]


def operators_for(field: ContextField, server: ServerInfo | None) -> tuple[str, ...]:
    """The operators a constraint on `field` may use on this server, in Unleash's order."""
    return _operators(field.name == CURRENT_TIME, server)


def _operators(dates: bool, server: ServerInfo | None) -> tuple[str, ...]:
    return tuple(
        op
        for op in CONSTRAINT_OPERATORS
        if (op in DATE_OPERATORS) == dates
        and capabilities.at_least(server, OPERATOR_SINCE.get(op, (0, 0, 0)))
    )


def is_multi_value(operator: str) -> bool:
    """True for the operators that compare a list (`values`), False for one `value`."""
    return operator in STRING_OPERATORS


UNLISTED = "is not a context field of this server: SDKs must send it"


def unlisted(name: str, catalog: RolloutCatalog) -> str | None:
    """The warning for a context field the server does not list (None when it lists it): Unleash
    accepts such a constraint or stickiness, and it works only if the SDKs send the field."""
    if catalog.context_field(name) is not None:
        return None
    names = [f.name for f in catalog.context_fields]
    close = difflib.get_close_matches(name, names, n=1)  # pragma: no mutate (close[0] only)
    return f"{name!r} {UNLISTED}" + (f" (did you mean {close[0]}?)" if close else "")


def constraints(
    given: Iterable[Constraint], catalog: RolloutCatalog, *, where: str = "constraints"
) -> list[Constraint]:
    """Each constraint checked (`constraint`)."""
    return [constraint(c, catalog, where=f"{where}[{i}]") for i, c in enumerate(given)]


def constraint(c: Constraint, catalog: RolloutCatalog, *, where: str = "constraint") -> Constraint:
    """The constraint as it will be sent: `values` for string operators, `value` otherwise."""
    field = catalog.context_field(c.context_name)
    if not c.context_name.strip():
        raise InvalidArgument(f"{where}.contextName", "the name of a context field")
    if field is None and not capabilities.at_least(catalog.server, UNLISTED_SINCE):
        server = (  # at_least is True without a server: there is one here
            catalog.server.label if catalog.server else "this server"  # pragma: no mutate
        )
        since = capabilities.version_text(UNLISTED_SINCE)
        said = f"{c.context_name!r} is not a context field of {server}, which refuses a"
        said += f" constraint on one (Unleash {since} takes it): {_listed(catalog)}"
        raise InvalidArgument(f"{where}.contextName", said)
    operator = c.operator
    if operator not in CONSTRAINT_OPERATORS:
        close = difflib.get_close_matches(
            operator.upper(),
            CONSTRAINT_OPERATORS,
            n=1,  # pragma: no mutate (close[0] only)
        )
        hint = f"did you mean {close[0]}? " if close else ""
        known = ", ".join(CONSTRAINT_OPERATORS)
        raise InvalidArgument(f"{where}.operator", f"{operator!r} is no operator; {hint}{known}")
    dates = c.context_name == CURRENT_TIME
    allowed = operators_for(field, catalog.server) if field else _operators(dates, catalog.server)
    if operator not in allowed:
        raise InvalidArgument(f"{where}.operator", _not_allowed(operator, c, allowed, catalog))
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
    if c.value and c.values:  # an SDK reads one of them: which one depends on the operator
        read = "values" if is_multi_value(operator) else "value"
        unread = "value" if read == "values" else "values"
        said = f"give value or values, not both ({operator} compares {read}; {unread} is unread)"
        raise InvalidArgument(f"{where}.{unread}", said)
    if is_multi_value(operator):
        if not c.values:
            raise InvalidArgument(f"{where}.values", f"{operator} needs at least one value")
        return list(c.values)
    value = c.value if c.value is not None else (c.values[0] if c.values else "")
    if not value or (c.values and len(c.values) > 1):
        raise InvalidArgument(f"{where}.value", f"{operator} compares exactly one value")
    kind = next(said for ops, said in _KINDS if operator in ops)
    if operator == REGEX_OPERATOR and (error := regex_error(value)) is not None:
        raise InvalidArgument(f"{where}.value", f"{value!r} is not {kind}: {error}")
    if not _is_of_kind(operator, value):
        raise InvalidArgument(f"{where}.value", f"{value!r} is not {kind}")
    return [value]


def _is_of_kind(operator: str, value: str) -> bool:
    if operator in NUM_OPERATORS:
        return bool(_NUMBER.fullmatch(value)) and math.isfinite(float(value))
    if operator in SEMVER_OPERATORS:
        return bool(_SEMVER.fullmatch(value))
    if operator in DATE_OPERATORS:
        return is_date(value)
    return regex_error(value) is None


def is_date(value: str) -> bool:
    """A constraint's date (`2026-01-31T09:00:00Z`, `…:00.000+02:00`): the one form the SDKs'
    engine reads in a constraint (any other never matches, though the server stores it)."""
    return bool(_DATE_VALUE.fullmatch(value)) and _instant(value)


def is_context_time(value: str) -> bool:
    """A `currentTime` in a context, as the SDKs' engine reads one (RFC 3339, leniently: any
    fraction, `t` or a space, `+0100`); any other is no time at all to it."""
    return bool(_CONTEXT_TIME.fullmatch(value)) and _instant(value)


def _instant(value: str) -> bool:
    """Whether its date and time exist (no 31 February, no 25 o'clock)."""
    day, clock = value[:10], value[11:19]
    try:
        datetime.fromisoformat(f"{day}T{clock}")
    except ValueError:
        return False
    return True


def regex_error(value: str) -> str | None:
    """Why the SDKs' engine (yggdrasil, in Rust) cannot evaluate `value`; None when it can. It
    compiles REGEX values with Rust's `regex` crate, and one that does not compile never
    matches, without a word (the engine reports nothing). `flpc` binds the same crate, so its
    verdict is the engine's: `(?i)` anywhere, `\\pL`, `\\z` are accepted; lookaround,
    backreferences and `\\Z` are not. The server's own check (8.2.0: Go's RE2 syntax) refuses a
    few more, such as `(?x)` and `a++`, and says so itself."""
    try:
        flpc.compile(value)
    except ValueError as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        return lines[-1].removeprefix("error: ") if lines else "not a regular expression"
    return None


def _listed(catalog: RolloutCatalog) -> str:
    names = [f.name for f in catalog.context_fields]
    return "its fields: " + ", ".join(names[:20]) + (", …" if len(names) > 20 else "")


def _not_allowed(
    operator: str, c: Constraint, allowed: Sequence[str], catalog: RolloutCatalog
) -> str:
    since = OPERATOR_SINCE.get(operator)
    if since and not capabilities.at_least(catalog.server, since):
        server = (  # at_least is True without a server: there is one here
            catalog.server.label if catalog.server else "this server"  # pragma: no mutate
        )
        return f"{operator} needs Unleash {capabilities.version_text(since)} ({server})"
    return f"{c.context_name} takes {', '.join(allowed)}"
