"""Creating a flag (`POST /api/admin/projects/:p/features`) and checking a name first
(`POST /api/admin/features/validate`), as real Unleash 8.2 does them.

Create: body `{name, type?, description?, impressionData?, tags?}`. The name is checked
first: URL-friendly, 1..100 characters (400), not taken by any flag, archived ones included
(409 NameExistsError "A flag with that name already exists" / "An archived flag with that name
already exists"); then the project (404). The type must be one of the server's feature types
(real Unleash's request schema lists them: 400 otherwise); it defaults to release. An empty
description is stored as null. The answer is 201 with real Unleash's short row (name,
description, type, project, stale, createdAt, impressionData, archived), which is also the
data of the feature-created event. The flag starts at lifecycle stage `initial`, with every
environment of its project switched off and without strategies.

Validate: `{name, projectId?}`; 200 with no body when the name is free and URL-friendly, else
the same 400 or 409. Any token may ask (real Unleash needs no permission for it).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import ApiError, bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.features import search_text
from flagtui.sandbox.inputs import Call, require_object
from flagtui.sandbox.strategy_rules import check_name


def _free_name(conn: sqlite3.Connection, name: Any) -> str:
    check_name(name)
    taken = conn.execute("SELECT archived_at FROM features WHERE name = ?", (name,)).fetchone()
    if taken is not None:
        archived = taken["archived_at"] is not None
        message = "An archived flag" if archived else "A flag"
        raise ApiError(409, f"{message} with that name already exists", "NameExistsError")
    return str(name)


def validate_name(call: Call) -> None:
    body = require_object(call.body)
    if not isinstance(body.get("name"), str):
        raise bad_request('"name" is required and must be a string')
    if body.get("projectId") is not None and not isinstance(body["projectId"], str):
        raise bad_request('"projectId" must be a string or null')
    with call.db.read() as conn:
        _free_name(conn, body["name"])


def _tags(value: Any) -> list[dict[str, str]]:
    if value is None:
        return []
    ok = isinstance(value, list) and all(
        isinstance(t, dict) and isinstance(t.get("type"), str) and isinstance(t.get("value"), str)
        for t in value
    )
    if not ok:
        raise bad_request('"tags" must be an array of {type, value} strings')
    return [{"type": t["type"], "value": t["value"]} for t in value]


def _checked_body(body: dict[str, Any]) -> tuple[str | None, bool, list[dict[str, str]]]:
    if not isinstance(body.get("name"), str):
        raise bad_request('"name" is required and must be a string')
    description = body.get("description")
    if description is not None and not isinstance(description, str):
        raise bad_request('"description" must be a string or null')
    impression = body.get("impressionData", False)
    if not isinstance(impression, bool):
        raise bad_request('"impressionData" must be a boolean')
    if "type" in body and not isinstance(body["type"], str):
        raise bad_request('"type" must be a string')
    return description or None, impression, _tags(body.get("tags"))


def create_feature(call: Call) -> shapes.CreatedFeature:
    body = require_object(call.body)
    description, impression, tags = _checked_body(body)
    project = call.path["project"]
    type_ = body.get("type", "release")
    with call.db.write() as conn:
        known = conn.execute("SELECT 1 FROM feature_types WHERE id = ?", (type_,)).fetchone()
        if known is None:
            raise bad_request(f'"type" must be one of the feature types; "{type_}" is none')
        name = _free_name(conn, body["name"])
        if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
            raise not_found(f"Active project with id {project} does not exist")
        now = now_iso()
        conn.execute(
            "INSERT INTO features (name, project, type, description, stale, potentially_stale,"
            " impression_data, favorite, created_at, created_by, archived_at, last_seen_at,"
            " stage, stage_entered_at, tags, search_text, parent, dependency, collaborators)"
            " VALUES (?, ?, ?, ?, 0, 0, ?, 0, ?, ?, NULL, NULL, 'initial', ?, ?, ?, NULL, NULL, ?)",
            (
                name,
                project,
                type_,
                description,
                int(impression),
                now,
                call.caller.user_id,
                now,
                dumps(tags),
                search_text(name, description, tags),
                dumps([call.caller.user_id]),
            ),
        )
        conn.execute(
            "INSERT INTO lifecycle_stages (feature, stage, entered_at) VALUES (?, 'initial', ?)",
            (name, now),
        )
        conn.execute(
            "INSERT INTO feature_environments (feature, environment, enabled, last_seen_at,"
            " variants) SELECT ?, environment, 0, NULL, '[]' FROM project_environments"
            " WHERE project = ?",
            (name, project),
        )
        created: shapes.CreatedFeature = {
            "name": name,
            "description": description,
            "type": type_,
            "project": project,
            "stale": False,
            "createdAt": now,
            "impressionData": impression,
            "archived": False,
        }
        record(conn, call.caller, "feature-created", project=project, feature=name, data=created)
        return created
