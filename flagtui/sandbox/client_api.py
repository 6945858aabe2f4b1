"""What SDKs read: `GET /api/client/features`, as real Unleash 8.2 builds it.

Any token may read it: the client token reads its environment (production), the admin and
viewer tokens `development` (a `*` token's default environment on real Unleash 7 and later).
Every live flag is listed with its environment's `enabled` and variants and its enabled
strategies in order (disabled ones are left out, and so are strategy ids, titles and sort
orders, as real Unleash leaves them out); a child flag carries its `dependencies`. An SDK that
says it knows segments (header `Unleash-Client-Spec` 4.2.0 or later, as the official SDKs send)
gets segment ids and the `segments` list; any other gets the segments' constraints inlined.
The ETag is `"<query hash>:<newest event id>:v1"` (the revision real Unleash puts there);
`If-None-Match` with the current ETag answers 304.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Annotated, Any

from starlette.responses import Response

from flagtui.sandbox import api_tokens
from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox.db import dumps
from flagtui.sandbox.inputs import Call

ADMIN_ENVIRONMENT = "development"
SEGMENTS_SPEC = (4, 2, 0)


def client_features(
    conn: sqlite3.Connection, environment: str, *, inline_segments: bool, projects: Any = "*"
) -> tuple[list[shapes.ClientFeature], list[shapes.ClientSegment]]:
    """The client API's features and segments for one environment (also the engine's state)."""
    segments: list[shapes.ClientSegment] = [
        {"id": r["id"], "name": r["name"], "constraints": json.loads(r["constraints"])}
        for r in conn.execute("SELECT id, name, constraints FROM segments ORDER BY id")
    ]
    by_id = {s["id"]: s for s in segments}
    settings = {
        r["feature"]: r
        for r in conn.execute(
            "SELECT feature, enabled, variants FROM feature_environments WHERE environment = ?",
            (environment,),
        )
    }
    strategies: dict[str, list[shapes.ClientStrategy]] = {}
    for s in conn.execute(
        "SELECT * FROM strategies WHERE environment = ? AND disabled = 0"
        " ORDER BY feature, sort_order, id",
        (environment,),
    ):
        strategy: shapes.ClientStrategy = {
            "name": s["name"],
            "constraints": json.loads(s["constraints"]),
            "parameters": json.loads(s["parameters"]),
            "variants": json.loads(s["variants"]),
        }
        ids = sorted(json.loads(s["segments"]))
        if inline_segments:
            for i in ids:
                strategy["constraints"].extend(by_id[i]["constraints"] if i in by_id else [])
        elif ids:
            strategy["segments"] = ids
        strategies.setdefault(s["feature"], []).append(strategy)
    where, params = "archived_at IS NULL", []
    if projects != "*":
        where += f" AND project IN ({','.join('?' * len(projects))})"
        params = list(projects)
    features: list[shapes.ClientFeature] = []
    for f in conn.execute(f"SELECT * FROM features WHERE {where} ORDER BY name", params):
        setting = settings.get(f["name"])
        feature: shapes.ClientFeature = {
            "name": f["name"],
            "type": f["type"],
            "description": f["description"],
            "project": f["project"],
            "enabled": bool(setting and setting["enabled"]),
            "stale": bool(f["stale"]),
            "impressionData": bool(f["impression_data"]),
            "strategies": strategies.get(f["name"], []),
            "variants": json.loads(setting["variants"]) if setting else [],
        }
        if f["dependency"]:
            dependency = json.loads(f["dependency"])
            if not dependency.get("enabled", True):
                dependency.pop("variants", None)
            feature["dependencies"] = [dependency]
        features.append(feature)
    return features, segments


def _knows_segments(spec: str | None) -> bool:
    parts = (spec or "").strip().split("-")[0].split(".")
    try:
        version = tuple(int(p) for p in parts[:3])
    except ValueError:
        return False
    return len(version) == 3 and version >= SEGMENTS_SPEC


def features_for_sdk(call: Call) -> Annotated[Response, shapes.ClientFeatures]:
    api_tokens.seen(call)
    environment = call.caller.client_environment or ADMIN_ENVIRONMENT
    inline = not _knows_segments(call.headers.get("unleash-client-spec"))
    query = {"environment": environment, "inlineSegmentConstraints": inline}
    query_hash = hashlib.sha1(dumps(query).encode(), usedforsecurity=False).hexdigest()
    with call.db.read() as conn:
        revision = conn.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0]
        etag = f'"{query_hash}:{revision}:v1"'
        if call.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"ETag": etag})
        features, segments = client_features(conn, environment, inline_segments=inline)
    answer: dict[str, Any] = {"version": 2, "features": features, "query": query}
    if not inline:
        answer["segments"] = segments
    answer["meta"] = {"revisionId": revision, "etag": etag, "queryHash": query_hash}
    return Response(dumps(answer), media_type="application/json", headers={"ETag": etag})
