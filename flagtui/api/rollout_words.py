"""A rollout in words, for people: constraints ("userId is one of u-1, u-2"), variants
("control 50 %"), a strategy's lines. Plain text holding the server's own strings as they are:
whatever shows it goes through the display boundary (`display.clean`, the TUI's format.py).
The commands and the TUI say a rollout the same way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flagtui.api.models import Constraint, Strategy, Variant

_SAID = {
    "IN": "is one of",
    "NOT_IN": "is not one of",
    "STR_CONTAINS": "contains",
    "STR_STARTS_WITH": "starts with",
    "STR_ENDS_WITH": "ends with",
    "NUM_EQ": "=",
    "NUM_GT": ">",
    "NUM_GTE": "≥",
    "NUM_LT": "<",
    "NUM_LTE": "≤",
    "DATE_AFTER": "is after",
    "DATE_BEFORE": "is before",
    "SEMVER_EQ": "= version",
    "SEMVER_GT": "> version",
    "SEMVER_GTE": "≥ version",
    "SEMVER_LT": "< version",
    "SEMVER_LTE": "≤ version",
    "REGEX": "matches",
}
_ONE = {"IN": "is", "NOT_IN": "is not"}


def constraint_text(c: Constraint) -> str:
    values = list(c.values or []) or ([c.value] if c.value else [])
    said = _SAID.get(c.operator, c.operator)
    if len(values) == 1:
        said = _ONE.get(c.operator, said)
    elif c.operator.startswith("STR_"):
        said = f"{said} any of"
    text = f"{c.context_name} {said} {', '.join(values)}".rstrip()
    if c.case_insensitive:
        text += " (any case)"
    return f"not ({text})" if c.inverted else text


def constraints_text(constraints: Sequence[Constraint] | None) -> str:
    return " and ".join(constraint_text(c) for c in constraints or [])


def weight_text(weight: float | None) -> str:
    return "?" if weight is None else f"{weight / 10:g} %"


def variant_text(v: Variant) -> str:
    fixed = " fixed" if v.weight_type == "fix" else ""
    payload = f" = {v.payload.type}:{v.payload.value}" if v.payload else ""
    return f"{v.name} {weight_text(v.weight)}{fixed}{payload}"


def variants_text(variants: Sequence[Variant] | None) -> str:
    if not variants:
        return ""
    sticky = variants[0].stickiness
    said = ", ".join(variant_text(v) for v in variants)
    return f"{said} (sticky on {sticky})" if sticky else said


def segments_text(ids: Sequence[float] | None, names: Mapping[int, str]) -> str:
    """Segments by name; one the names do not hold as `segment <id>`."""
    return ", ".join(names.get(int(i), f"segment {i:g}") for i in ids or [])


def rollout_text(s: Strategy) -> str:
    """A gradual rollout's percentage, stickiness and group; another type's parameters."""
    params = dict(s.parameters or {})
    if s.name == "flexibleRollout":
        rollout = params.pop("rollout", "100")
        sticky, group = params.pop("stickiness", "default"), params.pop("groupId", "")
        extra = " ".join(f"{k}={v}" for k, v in sorted(params.items()))
        said = f"{rollout} % by {sticky}, group {group}"
        return f"{said} {extra}".rstrip()
    return " ".join(f"{k}={v}" for k, v in sorted(params.items()))


def strategy_lines(s: Strategy, segment_names: Mapping[int, str]) -> list[str]:
    """A strategy as a head line and indented detail lines (constraints, segments, variants)."""
    title = f" “{s.title}”" if s.title else ""
    disabled = " [disabled]" if s.disabled else ""
    head = f"{s.name}{title} {rollout_text(s)}".rstrip() + disabled
    lines = [head]
    lines += [f"  if {constraint_text(c)}" for c in s.constraints or []]
    if s.segments:
        lines.append(f"  in segments {segments_text(s.segments, segment_names)}")
    if s.variants:
        lines.append(f"  variants {variants_text(s.variants)}")
    return lines
