"""A flag's rollout in words, the same for the TUI and the commands (no UI library here).

Each function takes the records the admin client parsed and answers plain text that is safe to
draw: every value a server sent goes through `clean()` one line at a time, so a title with a
newline or an escape sequence cannot break or drive the line it is in.

Constraints read as a person would say them ("userId is one of u-1, u-2", "appVersion ≥ 1.2.0
(semver)"); an inverted one is wrapped in "not (…)", a case-insensitive one says so. Segments
are named from a mapping of id → name that the caller read (`GET /api/admin/segments`); an id
it does not hold is "segment #id". Weights are per mille on the wire, percentages here.

The commands say the same rollout more tersely, one strategy on a line or a table cell
(`strategy_lines`, `variants_text`, `constraints_text`, `rollout_text`, `segments_text`); their
JSON output keeps the API's records instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api.models import Constraint, Strategy, Variant, VariantOverride

# More values than this in one constraint are counted rather than listed (a list may hold 250);
# a payload longer than this many characters is cut (a JSON payload may be pages long).
VALUES_SHOWN = 10
PAYLOAD_SHOWN = 60

# Operators taking a list of `values`: the words before the list, with one value and with more.
_LIST_WORDS: dict[str, tuple[str, str]] = {
    "IN": ("is one of", "is one of"),
    "NOT_IN": ("is not one of", "is not one of"),
    "STR_CONTAINS": ("contains", "contains any of"),
    "STR_STARTS_WITH": ("starts with", "starts with any of"),
    "STR_ENDS_WITH": ("ends with", "ends with any of"),
}
# Operators taking one `value`: the words before it, and what kind of value is compared.
_SINGLE_WORDS: dict[str, tuple[str, str]] = {
    "NUM_EQ": ("=", "number"),
    "NUM_GT": (">", "number"),
    "NUM_GTE": ("≥", "number"),
    "NUM_LT": ("<", "number"),
    "NUM_LTE": ("≤", "number"),
    "DATE_AFTER": ("is after", "date"),
    "DATE_BEFORE": ("is before", "date"),
    "SEMVER_EQ": ("=", "semver"),
    "SEMVER_GT": (">", "semver"),
    "SEMVER_GTE": ("≥", "semver"),
    "SEMVER_LT": ("<", "semver"),
    "SEMVER_LTE": ("≤", "semver"),
    "REGEX": ("matches", "regex"),
}


def value_list(values: Iterable[str]) -> str:
    """ "a, b, c"; past `VALUES_SHOWN`, the rest counted: "a, …, j and 240 more"."""
    values = list(values)
    if not values:
        return "(no values)"
    shown = ", ".join(clean(v) for v in values[:VALUES_SHOWN])
    rest = len(values) - VALUES_SHOWN
    return f"{shown} and {rest} more" if rest > 0 else shown


def constraint_words(c: Constraint) -> str:
    """One constraint as a sentence: "appVersion ≥ 1.2.0 (semver)", "not (userId is one of
    u-1)", "email ends with @acme.example (case-insensitive)"."""
    field = clean(c.context_name)
    values = c.values or []
    notes = []
    if c.operator in _LIST_WORDS:
        one, many = _LIST_WORDS[c.operator]
        words = f"{field} {one if len(values) == 1 else many} {value_list(values)}"
    elif c.operator in _SINGLE_WORDS:
        word, kind = _SINGLE_WORDS[c.operator]
        single = c.value if c.value else (values[0] if values else "")
        words = f"{field} {word} {clean(single) if single else '(no value)'}"
        if kind in ("semver", "regex"):
            notes.append(kind)
    else:  # an operator newer than this version of flagtui: said as the server names it
        given = value_list(values) if values else clean(c.value or "(no value)")
        words = f"{field} {clean(c.operator)} {given}"
    if c.case_insensitive:
        notes.append("case-insensitive")
    if notes:
        words += f" ({', '.join(notes)})"
    return f"not ({words})" if c.inverted else words


def segment_words(segment_id: float, names: Mapping[int, str]) -> str:
    """ "segment beta-testers", or "segment #3" when its name is not known."""
    name = names.get(int(segment_id))
    return f"segment {clean(name)}" if name else f"segment #{segment_id:g}"


def in_sort_order(strategies: Iterable[Strategy] | None) -> list[Strategy]:
    """The order the SDKs evaluate them in: by sortOrder, the server's order among equals."""
    return sorted(strategies or [], key=lambda s: (s.sort_order is None, s.sort_order or 0))


def strategy_heading(s: Strategy) -> str:
    """The strategy's type and, in quotes, its title: `flexibleRollout “Beta tenants”`."""
    return clean(s.name) + (f" “{clean(s.title)}”" if s.title else "")


def _param(value: Any) -> str:
    return clean(value if isinstance(value, str) else str(value))


def parameter_words(s: Strategy) -> str:
    """A gradual rollout's "rollout 10% · stickiness default · groupId checkout"; any other
    type's parameters as "name value", by name. "" when it has none."""
    params = dict(s.parameters or {})
    parts = []
    if "rollout" in params:
        parts.append(f"rollout {_param(params.pop('rollout'))}%")
    for known in ("stickiness", "groupId"):
        if known in params:
            parts.append(f"{known} {_param(params.pop(known))}")
    parts += [f"{clean(k)} {_param(v)}" for k, v in sorted(params.items())]
    return " · ".join(parts)


def weight_words(weight: float | None) -> str:
    """Per mille as a percentage: 500 → "50%", 333 → "33.3%"."""
    return "weight not said" if weight is None else f"{weight / 10:g}%"


def override_words(o: VariantOverride) -> str:
    return f"{clean(o.context_name)} is one of {value_list(o.values)}"


def variant_words(v: Variant) -> str:
    """ "control 50% · stickiness userId · payload string control"; a fixed weight says so;
    an environment variant's overrides: "· forced for userId is one of u-1"."""
    parts = [f"{clean(v.name)} {weight_words(v.weight)}"]
    if v.weight_type == "fix":
        parts[0] += " (fixed)"
    if v.stickiness:
        parts.append(f"stickiness {clean(v.stickiness)}")
    if v.payload is not None:
        value = v.payload.value
        if len(value) > PAYLOAD_SHOWN:
            value = f"{value[:PAYLOAD_SHOWN]}… ({len(value)} characters)"
        parts.append(f"payload {clean(v.payload.type)} {clean(value)}")
    parts += [f"forced for {override_words(o)}" for o in v.overrides or []]
    return " · ".join(parts)


# The commands' terse form: "f is one of a, b", "v ≥ version 1.2.3", "a 33.3 %, b 66.7 % fixed".
_SAID = {
    **{op: words[1] for op, words in _LIST_WORDS.items()},
    **{op: word for op, (word, _kind) in _SINGLE_WORDS.items()},
    **{op: f"{word} version" for op, (word, kind) in _SINGLE_WORDS.items() if kind == "semver"},
}
_ONE = {"IN": "is", "NOT_IN": "is not"}


def constraint_text(c: Constraint) -> str:
    values = [clean(v) for v in (c.values or [])] or ([clean(c.value)] if c.value else [])
    said = _SAID.get(c.operator, clean(c.operator))
    if len(values) == 1:
        said = _ONE.get(c.operator, _LIST_WORDS.get(c.operator, (said,))[0])
    text = f"{clean(c.context_name)} {said} {', '.join(values)}".rstrip()
    if c.case_insensitive:
        text += " (any case)"
    return f"not ({text})" if c.inverted else text


def constraints_text(constraints: Sequence[Constraint] | None) -> str:
    return " and ".join(constraint_text(c) for c in constraints or [])


def weight_text(weight: float | None) -> str:
    return "?" if weight is None else f"{weight / 10:g} %"


def variant_text(v: Variant) -> str:
    fixed = " fixed" if v.weight_type == "fix" else ""
    payload = f" = {clean(v.payload.type)}:{clean(v.payload.value)}" if v.payload else ""
    return f"{clean(v.name)} {weight_text(v.weight)}{fixed}{payload}"


def variants_text(variants: Sequence[Variant] | None) -> str:
    if not variants:
        return ""
    sticky = variants[0].stickiness
    said = ", ".join(variant_text(v) for v in variants)
    return f"{said} (sticky on {clean(sticky)})" if sticky else said


def segments_text(ids: Sequence[float] | None, names: Mapping[int, str]) -> str:
    """Segments by name; one the names do not hold as `segment <id>`."""
    return ", ".join(clean(names.get(int(i), f"segment {i:g}")) for i in ids or [])


def rollout_text(s: Strategy) -> str:
    """A gradual rollout's percentage, stickiness and group; another type's parameters."""
    params = dict(s.parameters or {})
    if s.name == "flexibleRollout":
        rollout = _param(params.pop("rollout", "100"))
        sticky = _param(params.pop("stickiness", "default"))
        group = _param(params.pop("groupId", ""))
        extra = " ".join(f"{clean(k)}={_param(v)}" for k, v in sorted(params.items()))
        return f"{rollout} % by {sticky}, group {group} {extra}".rstrip()
    return " ".join(f"{clean(k)}={_param(v)}" for k, v in sorted(params.items()))


def strategy_lines(s: Strategy, segment_names: Mapping[int, str]) -> list[str]:
    """A strategy as a head line and indented detail lines (constraints, segments, variants)."""
    title = f" “{clean(s.title)}”" if s.title else ""
    disabled = " [disabled]" if s.disabled else ""
    head = f"{clean(s.name)}{title} {rollout_text(s)}".rstrip() + disabled
    lines = [head]
    lines += [f"  if {constraint_text(c)}" for c in s.constraints or []]
    if s.segments:
        lines.append(f"  in segments {segments_text(s.segments, segment_names)}")
    if s.variants:
        lines.append(f"  variants {variants_text(s.variants)}")
    return lines
