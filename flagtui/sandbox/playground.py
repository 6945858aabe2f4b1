"""`POST /api/admin/playground`: how the SDKs would evaluate every flag for one context.

Body `{environment, projects?: "*" | [ids], context: {appName, userId?, sessionId?,
remoteAddress?, currentTime?, properties?, <custom fields>}}`; custom fields at the top level
are read as properties, as real Unleash reads them. The answer is real Unleash's:
`{input, features: [{name, projectId, isEnabled, isEnabledInCurrentEnvironment,
hasUnsatisfiedDependency, variant, variants, strategies: {result, data}}]}`.

Every answer comes from yggdrasil-engine, the evaluation core the official SDKs embed, fed
with what `/api/client/features` serves for that environment: `isEnabled` and `variant` are
exactly what an SDK answers. Each strategy's, constraint's and segment's own result is the
engine's answer for a copy of the flag holding only that strategy (or a standard strategy with
only that constraint or segment). Disabled strategies are `unevaluated`, as on real Unleash.
"""

from __future__ import annotations

import json
import re
from typing import Any

from yggdrasil_engine.engine import UnleashEngine

from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox.client_api import client_features
from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.inputs import Call, require_object

STANDARD_KEYS = ("appName", "userId", "sessionId", "remoteAddress", "currentTime", "environment")
PART = "\x1f"  # separates a flag's name from its parts' in the engine (no flag name has it)


def engine_context(context: dict[str, Any], environment: str) -> dict[str, Any]:
    properties = {k: str(v) for k, v in (context.get("properties") or {}).items()}
    out: dict[str, Any] = {"environment": environment}
    for key, value in context.items():
        if key in STANDARD_KEYS and isinstance(value, str):
            out[key] = value
        elif key != "properties" and isinstance(value, str):
            properties[key] = value
    out["properties"] = properties
    return out


def _checked(body: Any) -> tuple[str, Any, dict[str, Any]]:
    body = require_object(body)
    environment, projects, context = (
        body.get("environment"),
        body.get("projects", "*"),
        body.get("context"),
    )
    if not isinstance(environment, str):
        raise bad_request('"environment" is required and must be a string')
    if projects != "*" and not (
        isinstance(projects, list) and all(isinstance(p, str) for p in projects)
    ):
        raise bad_request('"projects" must be "*" or an array of project ids')
    if not isinstance(context, dict) or "appName" not in context:
        raise bad_request('"context" is required, with a string "appName"')
    return environment, projects, checked_context(context)


def checked_context(raw: dict[str, Any]) -> dict[str, Any]:
    """The context as real Unleash's request schema takes it (Ajv, coercing types): the standard
    fields and each property a string, a number, a boolean or null (made a string; null is
    ""), never an object or array; `properties` an object; `currentTime` an RFC 3339 date-time;
    `appName` not empty. Fields of its own at the top level are taken as they are."""
    context = dict(raw)
    for key in STANDARD_KEYS:
        if key in context:
            context[key] = _text(context[key], f"context.{key}")
    if not context["appName"]:
        raise bad_request('"context.appName" must not be empty')
    if "currentTime" in context and not _DATE_TIME.match(context["currentTime"]):
        raise bad_request('"context.currentTime" must be a date-time (RFC 3339)')
    if "properties" in context:
        props = context["properties"]
        if not isinstance(props, dict):
            raise bad_request('"context.properties" must be an object')
        context["properties"] = {k: _text(v, f"context.properties.{k}") for k, v in props.items()}
    return context


_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def _text(value: Any, field: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(int(value)) if float(value).is_integer() else repr(value)
    if not isinstance(value, str):
        raise bad_request(f'"{field}" must be a string')
    return value


def _variant(engine: UnleashEngine, name: str, context: dict[str, Any]) -> shapes.EvaluatedVariant:
    found = engine.check_variant(name, context).variant
    variant: shapes.EvaluatedVariant = {
        "name": found.name,
        "enabled": found.enabled,
        "feature_enabled": found.feature_enabled,
    }
    if found.payload:
        variant["payload"] = {"type": found.payload["type"], "value": found.payload["value"]}
    return variant


def _parts(feature: dict[str, Any], strategies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One always-on copy of the flag per strategy, constraint and segment."""
    name = feature["name"]
    parts = []
    for i, s in enumerate(strategies):
        params = {**s["parameters"], "groupId": s["parameters"].get("groupId") or name}
        alone = {**s, "parameters": params}
        parts.append({"name": f"{name}{PART}{i}", "enabled": True, "strategies": [alone]})
        for j, c in enumerate(s["constraints"]):
            standard = {"name": "default", "parameters": {}, "constraints": [c]}
            parts.append(
                {"name": f"{name}{PART}{i}c{j}", "enabled": True, "strategies": [standard]}
            )
        for k in s.get("segments", []):
            standard = {"name": "default", "parameters": {}, "constraints": [], "segments": [k]}
            parts.append(
                {"name": f"{name}{PART}{i}g{k}", "enabled": True, "strategies": [standard]}
            )
    return parts


class Loaded:
    """An environment's flags of `projects` in the engine, with their strategies and parts."""

    def __init__(self, call: Call, environment: str, projects: Any) -> None:
        self.environment = environment
        with call.db.read() as conn:
            state, segments = client_features(
                conn, environment, inline_segments=False, projects=projects
            )
            names = [f["name"] for f in state]
            marks = ",".join("?" * len(names))
            rows = conn.execute(
                f"SELECT * FROM strategies WHERE environment = ? AND feature IN ({marks})"
                " ORDER BY sort_order, id",
                [environment, *names],
            ).fetchall()
            self.segment_names = dict(conn.execute("SELECT id, name FROM segments").fetchall())
        self.state: list[dict[str, Any]] = [dict(f) for f in state]
        self.strategies: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            self.strategies.setdefault(r["feature"], []).append(
                {
                    "id": r["id"],
                    "name": r["name"],
                    "title": r["title"],
                    "disabled": bool(r["disabled"]),
                    "parameters": json.loads(r["parameters"]),
                    "constraints": json.loads(r["constraints"]),
                    "segments": sorted(json.loads(r["segments"])),
                    "variants": json.loads(r["variants"]),
                }
            )
        parts = [p for f in self.state for p in _parts(f, self.strategies.get(f["name"], []))]
        self.engine = UnleashEngine()
        self.engine.take_state(
            json.dumps({"version": 2, "features": [*state, *parts], "segments": segments})
        )

    def features(self, context: dict[str, Any]) -> list[shapes.PlaygroundFeature]:
        """Every flag's answer for `context`."""
        ctx = engine_context(context, self.environment)
        return [
            _feature(
                self.engine,
                f,
                self.strategies.get(f["name"], []),
                self.segment_names,
                ctx,
                self.environment,
            )
            for f in self.state
        ]


def evaluate(call: Call) -> shapes.Playground:
    environment, projects, context = _checked(call.body)
    features = Loaded(call, environment, projects).features(context)
    return {"input": {**call.body, "context": context}, "features": features}


def _feature(
    engine: UnleashEngine,
    feature: dict[str, Any],
    strategies: list[dict[str, Any]],
    segment_names: dict[int, str],
    ctx: dict[str, Any],
    environment: str,
) -> shapes.PlaygroundFeature:
    name = feature["name"]
    data = [
        _strategy(engine, name, i, s, segment_names, ctx, feature["project"], environment)
        for i, s in enumerate(strategies)
    ]
    active = [d for d in data if not d["disabled"]]
    result = not active or any(d["result"]["enabled"] is True for d in active)
    enabled = engine.check_enabled(name, ctx).is_enabled
    return {
        "name": name,
        "projectId": feature["project"],
        "strategies": {"result": result, "data": data},
        "hasUnsatisfiedDependency": bool(feature["enabled"] and result and not enabled),
        "isEnabledInCurrentEnvironment": feature["enabled"],
        "isEnabled": enabled,
        "variant": _variant(engine, name, ctx),
        "variants": feature["variants"],
    }


def _strategy(
    engine: UnleashEngine,
    feature: str,
    index: int,
    s: dict[str, Any],
    segment_names: dict[int, str],
    ctx: dict[str, Any],
    project: str,
    environment: str,
) -> shapes.EvaluatedStrategy:
    part = f"{feature}{PART}{index}"
    constraints = [
        {**c, "result": engine.check_enabled(f"{part}c{j}", ctx).is_enabled}
        for j, c in enumerate(s["constraints"])
    ]
    segments = [
        {
            "id": k,
            "name": segment_names.get(k, ""),
            "result": engine.check_enabled(f"{part}g{k}", ctx).is_enabled,
            "constraints": [],
        }
        for k in s["segments"]
    ]
    result: shapes.StrategyResult
    if s["disabled"]:
        result = {"evaluationStatus": "unevaluated", "enabled": "unknown"}
    else:
        result = {
            "evaluationStatus": "complete",
            "enabled": engine.check_enabled(part, ctx).is_enabled,
        }
        if s["variants"]:
            result["variant"] = _variant(engine, part, ctx) if result["enabled"] else None
            result["variants"] = s["variants"]
    evaluated: shapes.EvaluatedStrategy = {
        "id": s["id"],
        "name": s["name"],
        "disabled": s["disabled"],
        "parameters": s["parameters"],
        "result": result,
        "constraints": constraints,  # type: ignore[typeddict-item]
        "segments": segments,  # type: ignore[typeddict-item]
        "links": {
            "edit": f"/projects/{project}/features/{feature}/strategies/edit"
            f"?environmentId={environment}&strategyId={s['id']}"
        },
    }
    if s["title"]:
        evaluated["title"] = s["title"]
    return evaluated
