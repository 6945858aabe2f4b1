"""A flag as the admin API returns it, in the shape SDKs read from `/api/client/features`.

Real Unleash builds that shape for one environment (its client feature read model): the
environment's `enabled` and variants, its strategies sorted by `sortOrder` with the disabled
ones left out and ids, titles and sort orders dropped, every parameter turned into a string,
segment ids on the strategies and the segments themselves beside the features, and a child
flag's `dependencies`. This module does the same to the admin API's records, so the engine is
fed what an SDK would be fed; it reads plain data (Mappings, sequences, or pydantic models,
dumped by alias) and knows nothing of the client that fetched it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

# What the preview reads: an admin API record as JSON, or a pydantic model of one.
Record = Mapping[str, Any] | BaseModel


class PreviewError(ValueError):
    """The flag cannot be previewed as given (the sentence says what is missing)."""


def plain(value: Any) -> Any:
    """Mappings, sequences and pydantic models as JSON-like dicts and lists (camelCase keys)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def parameter_text(value: Any) -> str:
    """A parameter as real Unleash serves it to SDKs (`ensureStringValue`): always a string."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float):
        return repr(value)
    if value is None:
        return ""
    return json.dumps(value, separators=(",", ":"))


def environment_of(flag: Mapping[str, Any], environment: str) -> dict[str, Any]:
    for entry in flag.get("environments") or []:
        if environment in (entry.get("name"), entry.get("environment")):
            return dict(entry)
    known = ", ".join(str(e.get("name")) for e in flag.get("environments") or []) or "none"
    raise PreviewError(
        f"flag {flag.get('name')!r} has no environment {environment!r} (it has: {known})"
    )


def _in_order(strategies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Unleash sorts by sortOrder when both sides have one and leaves the rest where they are.
    if all(isinstance(s.get("sortOrder"), int) for s in strategies):
        return sorted(strategies, key=lambda s: s["sortOrder"])
    return strategies


def client_strategy(strategy: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": strategy["name"],
        "constraints": list(strategy.get("constraints") or []),
        "parameters": {k: parameter_text(v) for k, v in (strategy.get("parameters") or {}).items()},
        "variants": list(strategy.get("variants") or []),
    }
    if strategy.get("segments"):
        out["segments"] = list(strategy["segments"])
    return out


def client_feature(flag: Record, environment: str) -> dict[str, Any]:
    """The flag's entry in `/api/client/features` for `environment`."""
    record: dict[str, Any] = plain(flag)
    env = environment_of(record, environment)
    strategies = [s for s in _in_order(list(env.get("strategies") or [])) if not s.get("disabled")]
    feature: dict[str, Any] = {
        "name": record["name"],
        **{k: record[k] for k in ("type", "project") if isinstance(record.get(k), str)},
        "enabled": bool(env.get("enabled")),
        "stale": bool(record.get("stale")),
        "impressionData": bool(record.get("impressionData")),
        "strategies": [client_strategy(s) for s in strategies],
        "variants": list(env.get("variants") or []),
    }
    dependencies = []
    for d in record.get("dependencies") or []:
        dependency = {"feature": d["feature"], "enabled": d.get("enabled", True) is not False}
        if dependency["enabled"] and d.get("variants"):
            dependency["variants"] = list(d["variants"])
        dependencies.append(dependency)
    if dependencies:
        feature["dependencies"] = dependencies
    return feature


def client_state(
    flag: Record,
    environment: str,
    segments: Iterable[Record] = (),
    related: Sequence[Record] = (),
) -> dict[str, Any]:
    """The engine's state (a `/api/client/features` answer with segments) holding `flag` and
    the `related` flags it depends on, and the segments their strategies name.

    `segments`: the server's segments (`GET /api/admin/segments`: id, name, constraints).
    A segment or a parent flag the strategies name but that is not given is an error: without
    it the engine would answer "off" where an SDK may answer "on"."""
    features = [client_feature(f, environment) for f in (flag, *related)]
    known = {f["name"] for f in features}
    for f in features:
        for d in f.get("dependencies", []):
            if d["feature"] not in known:
                raise PreviewError(
                    f"flag {f['name']!r} depends on {d['feature']!r}: give that flag too"
                )
    by_id = {s["id"]: s for s in (plain(s) for s in segments)}
    used = sorted({i for f in features for s in f["strategies"] for i in s.get("segments", [])})
    missing = [i for i in used if i not in by_id]
    if missing:
        raise PreviewError(
            f"segment {', '.join(map(str, missing))} is named by a strategy but was not given"
        )
    return {
        "version": 2,
        "features": features,
        "segments": [
            {
                "id": i,
                "name": by_id[i].get("name", ""),
                "constraints": list(by_id[i].get("constraints") or []),
            }
            for i in used
        ],
    }
