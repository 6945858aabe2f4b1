"""`POST /api/admin/playground/advanced`: every flag for every combination of contexts, as real
Unleash (5.2 on) answers it.

Body `{environments: [names], projects?: "*" | [ids], context}`. As there: the context's
top-level values that are not strings are dropped (`warnings.invalidContextProperties`), then
every string value, the properties' too, is split at commas and every combination of the parts
is one context, flat (the properties beside the standard fields, `appName` last), taken field
by field in the body's order. environments times the first environment's flags times contexts
may be at most the limit (real Unleash's 15,000, or `ADVANCED_PLAYGROUND_LIMIT`, as its
`advancedPlayground` flag sets it at runtime), else 400 with real Unleash's message. Its body
may be at most 100 kB (express's default there; 413). The answer: `{input, features: [{name,
projectId, environments: {env: [one-context answer + environment, context]}}], warnings?}`.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from typing import Any

from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.inputs import Call, require_object
from flagtui.sandbox.playground import Loaded, checked_context

LIMIT = 15_000
LIMIT_ENV = "ADVANCED_PLAYGROUND_LIMIT"
MAX_BODY = 100 * 1024
ENVIRONMENT_NAME = re.compile(r"^[a-zA-Z0-9~_.-]+$")


def limit() -> int:
    """The environment's limit where it is a number (read at each request), else LIMIT."""
    raw = os.environ.get(LIMIT_ENV, "")
    return int(raw) if raw.strip().lstrip("-").isdigit() else LIMIT


def evaluate(call: Call) -> dict[str, Any]:
    environments, projects, context = _checked(call.body)
    kept, dropped = _cleaned(context)
    parts = _parts(kept)
    combinations = math.prod(len(values) for values in parts.values())
    loaded = [Loaded(call, environment, projects) for environment in environments]
    counted, most = len(loaded[0].state), limit()
    total = len(environments) * counted * combinations
    if total > most:
        raise bad_request(
            "Request validation failed: your request body or params contain invalid data:"
            f" Rejecting evaluation as it would generate {total} combinations exceeding {most}"
            f" limit. Please reduce the number of selected environments ({len(environments)}),"
            f" features ({counted}), context field combinations ({combinations})."
        )
    keys = list(parts)
    contexts = [dict(zip(keys, v, strict=True)) for v in itertools.product(*parts.values())]
    flags: dict[str, dict[str, Any]] = {}
    for side in loaded:
        for one in contexts:
            for answer in side.features(one):
                flag = flags.setdefault(
                    answer["name"],
                    {"name": answer["name"], "projectId": answer["projectId"], "environments": {}},
                )
                entry = {**answer, "environment": side.environment, "context": one}
                flag["environments"].setdefault(side.environment, []).append(entry)
    out: dict[str, Any] = {
        "features": list(flags.values()),
        "input": {**call.body, "context": context},
    }
    if dropped:
        out["warnings"] = {"invalidContextProperties": dropped}
    return out


def _checked(body: Any) -> tuple[list[str], Any, dict[str, Any]]:
    body = require_object(body)
    environments, projects, context = (
        body.get("environments"),
        body.get("projects", "*"),
        body.get("context"),
    )
    if not (
        isinstance(environments, list)
        and environments
        and all(isinstance(e, str) and ENVIRONMENT_NAME.match(e) for e in environments)
    ):
        raise bad_request('"environments" is required: an array of at least one environment name')
    if projects != "*" and not (
        isinstance(projects, list) and all(isinstance(p, str) for p in projects)
    ):
        raise bad_request('"projects" must be "*" or an array of project ids')
    if not isinstance(context, dict) or "appName" not in context:
        raise bad_request('"context" is required, with a string "appName"')
    return environments, projects, checked_context(context)


def _cleaned(context: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Real Unleash's cleanContext: top-level values that are not strings dropped (but
    `properties`), `appName` moved last."""
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for key, value in context.items():
        if key == "appName":
            continue
        if key == "properties" or isinstance(value, str):
            kept[key] = value
        else:
            dropped.append(key)
    kept["appName"] = context["appName"]
    return kept, dropped


def _parts(context: dict[str, Any]) -> dict[str, list[Any]]:
    """Each field's values: a string split at commas, the properties' among the fields."""
    parts: dict[str, list[Any]] = {}
    for key, value in context.items():
        if key == "properties" and isinstance(value, dict):
            parts.update({k: _split(v) for k, v in value.items()})
        else:
            parts[key] = _split(value)
    return parts


def _split(value: Any) -> list[Any]:
    return value.split(",") if isinstance(value, str) else [value]
