"""`POST /api/admin/features-batch/export`, as real Unleash 6.10.1 to 8.2.0 answer it (the web
UI's export; OSS).

The body names one `environment` and the flags: `features` (names), else `project` (its
flags), else `tag` (flags with a tag of that value), else every flag; without `environment`:
400. Names it does not know are left out; archived flags are in it (`archived` true). The
answer: `features` (name, description, type, project, stale, impressionData, archived),
`featureStrategies` of that environment (id, name, featureName, title, parameters,
constraints, variants, disabled, segments by id: no sortOrder, and in no set order on real
Unleash; here in the reverse of the order they evaluate in, so that no reader can lean on the
listing), `featureEnvironments` (enabled, variants), the `contextFields` their strategies and
variants name, `featureTags`, `segments` (id and name only), `tagTypes`, `dependencies` and
`links` (where flags have links), each by flag name. It records a `features-exported` event,
its data the answer."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, NotRequired, cast

from typing_extensions import TypedDict

from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.events import record
from flagtui.sandbox.features import FEATURE_COLUMNS, feature_record
from flagtui.sandbox.inputs import Call, require_object

CONTEXT_COLUMNS = "name, description, stickiness, sort_order, legal_values"


class ExportResult(TypedDict):
    features: list[dict[str, Any]]
    featureStrategies: list[dict[str, Any]]
    featureEnvironments: list[dict[str, Any]]
    contextFields: list[dict[str, Any]]
    featureTags: list[dict[str, Any]]
    segments: list[dict[str, Any]]
    tagTypes: list[dict[str, Any]]
    dependencies: list[dict[str, Any]]
    links: NotRequired[list[dict[str, Any]]]


def _rows(conn: sqlite3.Connection, body: dict[str, Any]) -> list[sqlite3.Row]:
    select = f"SELECT {FEATURE_COLUMNS} FROM features"
    names = body.get("features")
    if isinstance(names, list) and names:
        if not all(isinstance(n, str) for n in names):
            raise bad_request("Request validation failed: features must be a list of names")
        marks = ",".join("?" * len(names))
        return conn.execute(f"{select} WHERE name IN ({marks}) ORDER BY name", names).fetchall()
    if isinstance(body.get("project"), str):
        return conn.execute(
            f"{select} WHERE project = ? ORDER BY name", (body["project"],)
        ).fetchall()
    if isinstance(body.get("tag"), str):
        rows = conn.execute(f"{select} ORDER BY name").fetchall()
        return [r for r in rows if any(t.get("value") == body["tag"] for t in _tags(r))]
    return conn.execute(f"{select} ORDER BY name").fetchall()


def _tags(row: sqlite3.Row) -> list[dict[str, str]]:
    tags: list[dict[str, str]] = json.loads(row["tags"])
    return tags


def export(call: Call) -> ExportResult:
    body = require_object(call.body)
    environment = body.get("environment")
    if not isinstance(environment, str):
        raise bad_request(
            "Request validation failed: your request body or params contain invalid data:"
            " must have required property 'environment'"
        )
    result: ExportResult = {
        "features": [], "featureStrategies": [], "featureEnvironments": [],
        "contextFields": [], "featureTags": [], "segments": [], "tagTypes": [],
        "dependencies": [],
    }  # fmt: skip
    with call.db.write() as conn:
        segment_ids: set[int] = set()
        context: set[str] = set()
        tag_types: set[str] = set()
        for row in _rows(conn, body):
            _add(conn, row, environment, result, segment_ids, context, tag_types)
        result["segments"] = [
            {"id": r["id"], "name": r["name"]}
            for r in conn.execute("SELECT id, name FROM segments ORDER BY id")
            if r["id"] in segment_ids
        ]
        result["contextFields"] = _context_fields(conn, context)
        result["tagTypes"] = [
            {"name": r["name"], "description": r["description"], "icon": r["icon"],
             "color": r["color"]}
            for r in conn.execute("SELECT * FROM tag_types ORDER BY name")
            if r["name"] in tag_types
        ]  # fmt: skip
        record(conn, call.caller, "features-exported", data=result)
    return result


def _add(
    conn: sqlite3.Connection,
    row: sqlite3.Row,
    environment: str,
    result: ExportResult,
    segment_ids: set[int],
    context: set[str],
    tag_types: set[str],
) -> None:
    flag = feature_record(conn, row)
    name = flag["name"]
    result["features"].append({
        "name": name, "description": flag["description"], "type": flag["type"],
        "project": flag["project"], "stale": flag["stale"],
        "impressionData": flag["impressionData"], "archived": flag["archived"],
    })  # fmt: skip
    for env in flag["environments"]:
        if env["name"] != environment:
            continue
        result["featureEnvironments"].append({
            "enabled": env["enabled"], "featureName": name, "environment": environment,
            "variants": env["variants"], "name": name,
        })  # fmt: skip
        for v in env["variants"]:
            context.add(v.get("stickiness") or "")
            context.update(o.get("contextName") for o in v.get("overrides") or [])
        for s in reversed(env["strategies"]):
            strategy = {k: v for k, v in s.items() if k != "sortOrder"}
            result["featureStrategies"].append(strategy)
            segment_ids.update(s["segments"])
            context.add(s["parameters"].get("stickiness") or "")
            context.update(c.get("contextName") for c in s["constraints"])
    for tag in flag["tags"]:
        result["featureTags"].append(
            {"featureName": name, "tagType": tag["type"], "tagValue": tag["value"]}
        )
        tag_types.add(tag["type"])
    if flag["dependencies"]:
        result["dependencies"].append({"feature": name, "dependencies": flag["dependencies"]})
    fields = cast("dict[str, Any]", flag)
    if "links" not in fields:  # the version has none: nor has the answer (as 6.10.1's)
        return
    links = result.setdefault("links", [])
    if fields["links"]:
        links.append({
            "feature": name,
            "links": [{"id": k.get("id"), "url": k["url"], "title": k.get("title")}
                      for k in fields["links"]],
        })  # fmt: skip


def _context_fields(conn: sqlite3.Connection, used: set[str]) -> list[dict[str, Any]]:
    return [
        {"name": r["name"], "description": r["description"], "stickiness": bool(r["stickiness"]),
         "sortOrder": r["sort_order"], "legalValues": json.loads(r["legal_values"])}
        for r in conn.execute(f"SELECT {CONTEXT_COLUMNS} FROM context_fields ORDER BY name")
        if r["name"] in used
    ]  # fmt: skip
