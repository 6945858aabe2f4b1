"""What the rollout commands read from their options, as the client's models: constraints
(`'userId IN u-1,u-2'`), variants (`blue=25%`), payloads, parameters. Pure; a malformed option
is an InvalidArgument naming it (exit 2), before anything is sent. The client then checks the
values themselves against the server's catalog (`rollout_rules`)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from flagtui.api import InvalidArgument
from flagtui.contract import VARIANT_WEIGHT_TOTAL

if TYPE_CHECKING:
    from flagtui.api.models import Constraint, Variant

CONSTRAINT_HELP = (
    "'FIELD [NOT] OPERATOR VALUES': IN, NOT_IN and STR_* take comma-separated values, the"
    " others one value; OPERATOR/i ignores case; or a JSON constraint"
)
VARIANT_HELP = (
    "NAME, or NAME=WEIGHT for a fixed weight: a percentage (25%%, 12.5%%) or per mille (250);"
    " variants without a weight share the rest; repeatable"
)
PAYLOAD_HELP = "NAME=TYPE:VALUE, a variant's payload (TYPE json, csv, string or number)"


def constraint(text: str, *, where: str = "--constraint") -> Constraint:
    """`userId IN u-1,u-2`, `appVersion NOT SEMVER_LT 2.0.0`, `email STR_ENDS_WITH/i @acme.com`,
    or a constraint as JSON (`{"contextName": …}`)."""
    # Here, not at the top: it loads pydantic
    from pydantic import ValidationError

    from flagtui.api.constraint_rules import is_multi_value
    from flagtui.api.models import Constraint

    text = text.strip()
    if text.startswith("{"):
        try:
            return Constraint.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            said = ".".join(str(p) for p in first["loc"]) or "constraint"
            given = f" (given {first['input']!r})" if first["loc"] else ""
            raise InvalidArgument(where, f"{said}: {first['msg']}{given}") from None
    parts = text.split(None, 2)
    inverted = len(parts) == 3 and parts[1].upper() == "NOT"
    if inverted:
        parts = [parts[0], *parts[2].split(None, 1)]
    if len(parts) < 3:
        raise InvalidArgument(where, f"{text!r}: expected {CONSTRAINT_HELP}")
    field, operator, rest = parts
    operator, _, flag = operator.upper().partition("/")
    if flag not in ("", "I"):
        raise InvalidArgument(where, f"{operator}/{flag.lower()}: only /i (ignore case) is known")
    shared = {"context_name": field, "operator": operator}
    extra = {"inverted": True} if inverted else {}
    if flag:
        extra["case_insensitive"] = True
    if is_multi_value(operator):
        return Constraint(**shared, values=[v.strip() for v in rest.split(",")], **extra)
    return Constraint(**shared, value=rest.strip(), **extra)


def weight(text: str, *, where: str) -> int:
    """A fixed weight: `25%`, `12.5%` (to a tenth of a percent), or per mille `250`."""
    raw = text.strip()
    try:
        number = Decimal(raw[:-1]) * 10 if raw.endswith("%") else Decimal(raw)
    except InvalidOperation:
        number = Decimal("NaN")
    if not number.is_finite() or number != number.to_integral_value():
        number = Decimal(-1)
    if not 0 <= number <= VARIANT_WEIGHT_TOTAL:
        said = f"{text!r}: a percentage from 0% to 100% (to a tenth), or per mille 0 to 1000"
        raise InvalidArgument(where, said)
    return int(number)


def variants(
    specs: Sequence[str], payloads: Sequence[str] = (), *, stickiness: str | None = None
) -> list[Variant]:
    """`NAME` (variable) or `NAME=WEIGHT` (fixed), with `NAME=TYPE:VALUE` payloads."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.models import Variant

    out = []
    for spec in specs:
        name, sep, given = spec.partition("=")
        fixed = weight(given, where=f"--variant {name}") if sep else None
        out.append(
            Variant(
                name=name.strip(),
                weight=fixed,
                weight_type="fix" if sep else "variable",
                stickiness=stickiness,
            )
        )
    return with_payloads(out, payloads)


def with_payloads(given: Sequence[Variant], payloads: Sequence[str]) -> list[Variant]:
    """The variants with `--payload NAME=TYPE:VALUE` attached to the one named."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.models import VariantPayload

    out = list(given)
    for spec in payloads:
        name, sep, rest = spec.partition("=")
        kind, colon, value = rest.partition(":")
        if not sep or not colon:
            raise InvalidArgument("--payload", f"{spec!r}: expected {PAYLOAD_HELP}")
        index = next((i for i, v in enumerate(out) if v.name == name), None)
        if index is None:
            named = ", ".join(v.name for v in out) or "none"
            raise InvalidArgument("--payload", f"no variant {name!r} (variants: {named})")
        payload = VariantPayload(type=kind, value=value)
        out[index] = out[index].model_copy(update={"payload": payload})
    return out


def parameters(pairs: Sequence[str]) -> dict[str, str]:
    """`--param KEY=VALUE` pairs (a list parameter takes comma-separated values)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidArgument("--param", f"{pair!r}: expected KEY=VALUE")
        out[key] = value
    return out
