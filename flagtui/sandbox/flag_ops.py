"""Cloning a flag, deleting archived flags for good and marking a flag completed, as real
Unleash 8.2 does them (checked on 6.10.1, 7.5.1 and 8.2.0; the contract has none of them).

Clone: POST /projects/:p/features/:f/clone `{name, replaceGroupId?}`. An unknown source is a
404 first; then the name as creation checks it (400 "name" required or not URL-friendly, 409
NameExistsError when taken, archived flags included). 201 with the short row. The clone has
the source's type, description and impression data, every environment off, the source's
environment variants, its parent, and a copy of each strategy (new ids), a groupId parameter
set to the new name unless replaceGroupId is false (omitted: true). Records feature-created
(data: the short row), then feature-strategy-add per strategy (data: the strategy, with its
environment), then feature-dependency-added for its parent (data: the dependency).

Delete one: DELETE /archive/:feature, any project. 200 with no body. Only an archived flag is
deleted: a live or unknown name changes nothing (8.2.0; 6.10.1 and 7.5.1 answer 404 for an
unknown one and record feature-deleted for a live one they keep). Delete many: POST
/projects/:p/delete `{features}` (200; a name of another project's flag: 403; unknown or live
names skipped). Each deleted flag records feature-deleted, data null, preData its archived
row; its strategies, environments and lifecycle go with it, its events stay.

Complete: POST /projects/:p/features/:f/lifecycle/complete `{status: kept|discarded,
statusValue?}`, no other key (400). 200 with no body, for an unknown flag too (nothing
changes). The flag enters stage `completed` with that status; completing a completed flag
keeps its first status and records feature-completed again, as real Unleash does. Event data
`{status, statusValue?, kept}`, preData null.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox.archive import names_in, rows_in_project
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.feature_create import _free_name
from flagtui.sandbox.features import search_text
from flagtui.sandbox.inputs import Call, require_object
from flagtui.sandbox.strategies import strategy_record

COMPLETED = ("kept", "discarded")


def _source(conn: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    row = conn.execute(
        "SELECT * FROM features WHERE name = ? AND project = ?", (name, project)
    ).fetchone()
    if row is None:
        raise not_found(f'There\'s no feature named "{name}" in project "{project}".')
    return row


def clone(call: Call) -> shapes.CreatedFeature:
    body = require_object(call.body)
    project, source = call.path["project"], call.path["feature"]
    replace = body.get("replaceGroupId", True)
    if not isinstance(replace, bool):
        raise bad_request('"replaceGroupId" must be a boolean')
    with call.db.write() as conn:
        row = _source(conn, project, source)
        if "name" not in body:
            raise bad_request('"name" is required: the name of the new feature')
        name = _free_name(conn, body["name"])
        now = now_iso()
        conn.execute(
            "INSERT INTO features (name, project, type, description, stale, potentially_stale,"
            " impression_data, favorite, created_at, created_by, archived_at, last_seen_at,"
            " stage, stage_entered_at, tags, search_text, parent, dependency, collaborators)"
            " VALUES (?, ?, ?, ?, 0, 0, ?, 0, ?, ?, NULL, NULL, 'initial', ?, '[]', ?, ?, ?, ?)",
            (
                name, project, row["type"], row["description"], row["impression_data"], now,
                call.caller.user_id, now, search_text(name, row["description"], []),
                row["parent"], row["dependency"], dumps([call.caller.user_id]),
            ),
        )  # fmt: skip
        conn.execute(
            "INSERT INTO lifecycle_stages (feature, stage, entered_at) VALUES (?, 'initial', ?)",
            (name, now),
        )
        conn.execute(
            "INSERT INTO feature_environments (feature, environment, enabled, last_seen_at,"
            " variants) SELECT ?, environment, 0, NULL, variants FROM feature_environments"
            " WHERE feature = ?",
            (name, source),
        )
        created: shapes.CreatedFeature = {
            "name": name,
            "description": row["description"],
            "type": row["type"],
            "project": project,
            "stale": False,
            "createdAt": now,
            "impressionData": bool(row["impression_data"]),
            "archived": False,
        }
        record(conn, call.caller, "feature-created", project=project, feature=name, data=created)
        _copy_strategies(conn, call, project, source, name, replace)
        if row["dependency"]:  # its parent, as real Unleash clones it
            depends = json.loads(row["dependency"])
            record(conn, call.caller, "feature-dependency-added", project=project, feature=name,
                   data=depends)  # fmt: skip
        return created


def _copy_strategies(
    conn: sqlite3.Connection, call: Call, project: str, source: str, name: str, replace: bool
) -> None:
    rows = conn.execute(
        "SELECT * FROM strategies WHERE feature = ? ORDER BY environment, sort_order", (source,)
    ).fetchall()
    for s in rows:
        parameters: dict[str, Any] = json.loads(s["parameters"])
        if replace and "groupId" in parameters:
            parameters["groupId"] = name
        new_id = str(uuid.uuid4())
        conn.execute(
            "INSERT INTO strategies (id, feature, environment, name, title, disabled,"
            " sort_order, parameters, constraints, segments, variants)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                new_id, name, s["environment"], s["name"], s["title"], s["disabled"],
                s["sort_order"], dumps(parameters), s["constraints"], s["segments"],
                s["variants"],
            ),
        )  # fmt: skip
        added = strategy_record(
            conn.execute("SELECT * FROM strategies WHERE id = ?", (new_id,)).fetchone()
        )
        scope = {"project": project, "feature": name, "environment": s["environment"]}
        record(conn, call.caller, "feature-strategy-add", data=added, **scope)


def _archived_row(row: sqlite3.Row) -> dict[str, Any]:
    """The flag as real Unleash's feature-deleted event keeps it (its preData)."""
    return {
        "name": row["name"],
        "type": row["type"],
        "stale": bool(row["stale"]),
        "project": row["project"],
        "archived": True,
        "createdAt": row["created_at"],
        "archivedAt": row["archived_at"],
        "description": row["description"],
        "impressionData": bool(row["impression_data"]),
    }


def _delete_archived(conn: sqlite3.Connection, call: Call, name: str) -> None:
    row = conn.execute("SELECT * FROM features WHERE name = ?", (name,)).fetchone()
    if row is None or row["archived_at"] is None:
        return  # real Unleash deletes only archived flags
    for table in ("strategies", "feature_environments", "lifecycle_stages"):
        conn.execute(f"DELETE FROM {table} WHERE feature = ?", (name,))
    conn.execute("UPDATE features SET parent = NULL, dependency = NULL WHERE parent = ?", (name,))
    conn.execute("DELETE FROM features WHERE name = ?", (name,))
    record(
        conn,
        call.caller,
        "feature-deleted",
        project=row["project"],
        feature=name,
        pre_data=_archived_row(row),
    )


def delete_one(call: Call) -> None:
    with call.db.write() as conn:
        _delete_archived(conn, call, call.path["feature"])


def delete_many(call: Call) -> None:
    project = call.path["project"]
    names = names_in(call.body)
    with call.db.write() as conn:
        for row in rows_in_project(conn, project, names):  # 403 for another project's flag
            _delete_archived(conn, call, row["name"])


def complete(call: Call) -> None:
    body = require_object(call.body)
    if extra := sorted(set(body) - {"status", "statusValue"}):
        raise bad_request(f"The body does not allow additional properties: {', '.join(extra)}")
    status, value = body.get("status"), body.get("statusValue")
    if status not in COMPLETED:
        raise bad_request('"status" must be one of "kept", "discarded"')
    if value is not None and not isinstance(value, str):
        raise bad_request('"statusValue" must be a string')
    project, name = call.path["project"], call.path["feature"]
    with call.db.write() as conn:
        row = conn.execute(
            "SELECT stage FROM features WHERE name = ? AND project = ?", (name, project)
        ).fetchone()
        if row is None:
            return  # real Unleash answers 200 and changes nothing
        if row["stage"] != "completed":
            now = now_iso()
            conn.execute(
                "INSERT INTO lifecycle_stages (feature, stage, entered_at, status, status_value)"
                " VALUES (?, 'completed', ?, ?, ?)",
                (name, now, status, value),
            )
            conn.execute(
                "UPDATE features SET stage = 'completed', stage_entered_at = ? WHERE name = ?",
                (now, name),
            )
        data: dict[str, Any] = {"status": status}
        if value is not None:
            data["statusValue"] = value
        data["kept"] = status == "kept"
        record(conn, call.caller, "feature-completed", project=project, feature=name, data=data)
