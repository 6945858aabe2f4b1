"""A flag as the flags file holds it (docs/flags-file.schema.json), and as drift compares it:
plain data with the server's own ids left out (strategy ids, sort numbers, dates, segment ids:
segments by name), every list in a stable order (strategies as the server evaluates them,
tags and environment names sorted), absent values left out rather than null (TOML has none),
so that the same server state gives the same bytes.

`flag_shape` turns a full flag record into it; `flag_record` turns it back into a record the
client's models and the SDKs' engine read (segments given ids from `segment_ids`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flagtui.api.models import Feature, FeatureEnvironment
    from flagtui.api.rollout_models import Constraint, ContextField, Segment, Strategy, Variant

FILE_VERSION = 1


def _set(out: dict[str, Any], key: str, value: Any) -> None:
    if value is not None and value != "":
        out[key] = value


def constraint_shape(c: Constraint) -> dict[str, Any]:
    out: dict[str, Any] = {"contextName": c.context_name, "operator": c.operator}
    if c.values is not None and (c.values or c.value is None):
        out["values"] = list(c.values)
    _set(out, "value", c.value)
    if c.case_insensitive:
        out["caseInsensitive"] = True
    if c.inverted:
        out["inverted"] = True
    return out


def variant_shape(v: Variant) -> dict[str, Any]:
    out: dict[str, Any] = {"name": v.name}
    _set(out, "weight", v.weight)
    _set(out, "weightType", v.weight_type)
    _set(out, "stickiness", v.stickiness)
    if v.payload is not None:
        out["payload"] = {"type": v.payload.type, "value": v.payload.value}
    if v.overrides:
        out["overrides"] = [
            {"contextName": o.context_name, "values": list(o.values)} for o in v.overrides
        ]
    return out


def strategy_shape(s: Strategy, segment_names: Mapping[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": s.name}
    _set(out, "title", s.title)
    out["disabled"] = bool(s.disabled)
    parameters = {k: v for k, v in sorted((s.parameters or {}).items()) if v is not None}
    if parameters:
        out["parameters"] = parameters
    if s.constraints:
        out["constraints"] = [constraint_shape(c) for c in s.constraints]
    if s.segments:
        out["segments"] = sorted(segment_names.get(int(i), f"#{i}") for i in s.segments)
    if s.variants:
        out["variants"] = [variant_shape(v) for v in s.variants]
    return out


def environment_shape(env: FeatureEnvironment, segment_names: Mapping[int, str]) -> dict[str, Any]:
    # The order the server evaluates them in: by sortOrder, ties as the server listed them.
    ordered = sorted(env.strategies or [], key=lambda s: s.sort_order or 0)
    out: dict[str, Any] = {"enabled": env.enabled}
    out["strategies"] = [strategy_shape(s, segment_names) for s in ordered]
    out["variants"] = sorted((variant_shape(v) for v in env.variants or []), key=_by_name)
    return out


def _by_name(shape: Mapping[str, Any]) -> str:
    return str(shape["name"])


def flag_shape(
    flag: Feature, segment_names: Mapping[int, str], environments: Iterable[str]
) -> dict[str, Any]:
    """The flag's entry of the file, for `environments` (the ones it has of them)."""
    out: dict[str, Any] = {"project": flag.project or "", "name": flag.name}
    _set(out, "type", flag.type)
    _set(out, "description", flag.description)
    out["impressionData"] = bool(flag.impression_data)
    tags = sorted((t.type, t.value) for t in flag.tags or [])
    out["tags"] = [{"type": t, "value": v} for t, v in tags]
    dependencies = []
    for d in sorted(flag.dependencies or [], key=lambda d: d.feature):
        dependency: dict[str, Any] = {"feature": d.feature, "enabled": d.enabled is not False}
        if d.variants:
            dependency["variants"] = sorted(d.variants)
        dependencies.append(dependency)
    out["dependencies"] = dependencies
    links = flag.links
    if links is not None:  # not on every version
        out["links"] = sorted(
            ({"url": link.url, **({"title": link.title} if link.title else {})} for link in links),
            key=lambda link: (link["url"], link.get("title", "")),
        )
    wanted = set(environments)
    envs = {e.name: e for e in flag.environments or [] if e.name in wanted}
    out["environments"] = {n: environment_shape(envs[n], segment_names) for n in sorted(envs)}
    return out


def segment_shape(s: Segment) -> dict[str, Any]:
    out: dict[str, Any] = {"name": s.name}
    _set(out, "description", s.description)
    _set(out, "project", s.project)
    out["constraints"] = [constraint_shape(c) for c in s.constraints]
    return out


def context_field_shape(f: ContextField) -> dict[str, Any]:
    out: dict[str, Any] = {"name": f.name}
    _set(out, "description", f.description)
    out["stickiness"] = bool(f.stickiness)
    values = []
    for legal in sorted(f.legal_values, key=lambda v: v.value):
        value: dict[str, Any] = {"value": legal.value}
        _set(value, "description", legal.description)
        values.append(value)
    out["legalValues"] = values
    return out


def context_names(shapes: Iterable[Mapping[str, Any]]) -> set[str]:
    """The context fields named by these flags' or segments' constraints (and stickiness)."""
    found: set[str] = set()

    def constraints(items: Iterable[Mapping[str, Any]]) -> None:
        found.update(str(c["contextName"]) for c in items)

    for shape in shapes:
        constraints(shape.get("constraints") or [])
        for env in (shape.get("environments") or {}).values():
            for strategy in env.get("strategies") or []:
                constraints(strategy.get("constraints") or [])
                stickiness = (strategy.get("parameters") or {}).get("stickiness")
                if isinstance(stickiness, str):
                    found.add(stickiness)
    found.discard("default")
    found.discard("random")
    return found


def flag_record(shape: Mapping[str, Any], segment_ids: Mapping[str, int]) -> dict[str, Any]:
    """The admin API record of a file's flag (the environments it names), strategies numbered
    in file order, segments by the ids `segment_ids` gives their names."""
    environments = []
    for name, env in (shape.get("environments") or {}).items():
        strategies = []
        for i, s in enumerate(env.get("strategies") or []):
            strategy = {k: v for k, v in s.items() if k != "segments"}
            strategy["sortOrder"] = i
            strategy["segments"] = [segment_ids[n] for n in s.get("segments") or []]
            strategies.append(strategy)
        environments.append(
            {"name": name, "enabled": bool(env.get("enabled")), "strategies": strategies,
             "variants": list(env.get("variants") or [])}
        )  # fmt: skip
    record = {k: v for k, v in shape.items() if k != "environments"}
    record["environments"] = environments
    return record
