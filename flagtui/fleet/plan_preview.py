"""Who gets a flag before and after a plan, per environment, with the SDKs' engine
(flagtui/preview): how many of N synthetic users (`u-1` … `u-N`, with the typed context for
the rest) and which variant, and what the typed context itself gets.

A side is what `/api/client/features` would serve: the flag as recorded (the server's, or the
file's as a record, see `flag_shape.flag_record`), the segments by id with their constraints,
and the flags it depends on. An environment whose served shape is the same on both sides is
not evaluated (its users cannot change); a flag the server does not have yet gets no one
before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flagtui.preview import Population, Preview, PreviewError, client_state
from flagtui.preview.client_shape import Record, plain


@dataclass(frozen=True)
class SideOfPlan:
    """One side: flags by name (records), segments (id, name, constraints)."""

    flags: Mapping[str, Record]
    segments: Sequence[Mapping[str, Any]]


@dataclass
class Evaluated:
    environment: str
    users: int
    before: Population | None = None
    after: Population | None = None
    contexts: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"environment": self.environment, "users": self.users}
        if self.error is not None:
            return {**out, "error": self.error}
        for side, population in (("before", self.before), ("after", self.after)):
            if population is not None:
                out[side] = {"enabled": population.enabled,
                             "variants": dict(sorted(population.variants.items()))}  # fmt: skip
        out["contexts"] = self.contexts
        return out


def _related(name: str, side: SideOfPlan) -> list[Record]:
    """The flags `name` depends on, and theirs, as far as the side has them."""
    found: dict[str, Record] = {}
    todo = [name]
    while todo:
        record = side.flags.get(todo.pop())
        for dependency in plain(record).get("dependencies") or [] if record is not None else []:
            parent = str(dependency["feature"])
            if parent != name and parent not in found and parent in side.flags:
                found[parent] = side.flags[parent]
                todo.append(parent)
    return list(found.values())


def _served(name: str, side: SideOfPlan, environment: str) -> dict[str, Any] | None:
    record = side.flags.get(name)
    if record is None:
        return None
    state = client_state(record, environment, side.segments, _related(name, side))
    for feature in state["features"]:
        feature.pop("stale", None)  # said to SDKs, but no part of an evaluation
        feature["variants"] = [_bare(v) for v in feature["variants"]]
        for strategy in feature["strategies"]:
            strategy["constraints"] = [_bare(c) for c in strategy["constraints"]]
            strategy["variants"] = [_bare(v) for v in strategy["variants"]]
    for segment in state["segments"]:
        segment["constraints"] = [_bare(c) for c in segment["constraints"]]
    return state


def _bare(item: Mapping[str, Any]) -> dict[str, Any]:
    """A constraint or variant without the empty values that mean what their absence means
    (the server's `inverted: false`, `value: ""`, `overrides: []`; the file leaves them out)."""
    return {k: v for k, v in item.items() if v not in (None, False, "", [])}


def _preview(name: str, side: SideOfPlan, environment: str) -> Preview | None:
    record = side.flags.get(name)
    if record is None:
        return None
    return Preview(record, environment, segments=side.segments, related=_related(name, side))


def _nobody(users: int) -> Population:
    return Population(users=users, enabled=0, variants={"disabled": users})


def evaluate_change(
    name: str,
    environment: str,
    before: SideOfPlan,
    after: SideOfPlan,
    *,
    users: int,
    contexts: Sequence[Mapping[str, Any]] = (),
) -> Evaluated | None:
    """None when the environment serves the same on both sides."""
    result = Evaluated(environment, users)
    try:
        if _served(name, before, environment) == _served(name, after, environment):
            return None
        was, will = _preview(name, before, environment), _preview(name, after, environment)
        context = dict(contexts[0]) if len(contexts) == 1 else {}
        result.before = was.population(users, context) if was else _nobody(users)
        result.after = will.population(users, context) if will else _nobody(users)
        for typed in contexts:
            said: dict[str, Any] = {"context": dict(typed)}
            for side, preview in (("before", was), ("after", will)):
                answer = preview.evaluate(typed) if preview else None
                said[side] = {"enabled": bool(answer and answer.enabled),
                              "variant": answer.variant if answer else "disabled"}  # fmt: skip
            result.contexts.append(said)
    except PreviewError as exc:
        result.error = str(exc)
    return result
