"""Segments written (issue 46), as real Unleash 6.10.1, 7.5.1 and 8.2.0 answer them.

- `POST /api/admin/segments` `{name, description?, project?, constraints}`: 201 with the
  segment (`segment-created`, its data the segment, the event's project the segment's).
  `name` and `constraints` are required (400 BadDataError naming `/body/name` or
  `/body/constraints`); an empty name: `"name" is not allowed to be empty.`; a name taken: 409
  NameExistsError "Segment name already exists"; more than 1,000 values across its constraints:
  400 "Segments may not have more than 1000 values"; more than 300 segments: 400
  ExceedsLimitError. A project that does not exist: real Unleash's 500 (its foreign key); an
  empty one is no project, as Unleash stores it.
  Other keys are dropped; constraints are stored as sent (`values` [] added to a single-value
  one), on any context field.
- `GET /api/admin/segments/:id`: the segment; unknown: 404 `No segment exists with ID "x"`.
- `PUT /api/admin/segments/:id`: the same body, 204 (`segment-updated`, data the segment after,
  preData before; nothing recorded when nothing changes). Moving it to a project while
  strategies of other projects use it: 400 "Invalid project. Segment is being used by
  strategies in other projects: …".
- `DELETE /api/admin/segments/:id`: 204 (`segment-deleted`, data null, preData the segment);
  while a strategy of a live flag uses it: 409 with no body (an archived flag's do not count:
  the segment goes, they keep its id).
- `GET /api/admin/segments/:id/strategies`: `{strategies: [{id, projectId, featureName,
  strategyName, environment}], changeRequestStrategies: []}`, live flags only (404 when
  unknown, as 7.5.1 and 8.2.0; 6.10.1 answers an empty list).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flagtui.contract import SEGMENT_VALUES_MAX, SEGMENTS_MAX
from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import ApiError
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, require_object
from flagtui.sandbox.strategy_rules import constraint, exceeds_limit

INVALID = "Request validation failed: your request body or params contain invalid data"
USED_BY = (
    "SELECT s.id, f.project, s.feature, s.name, s.environment FROM strategy_segments u"
    " JOIN strategies s ON s.id = u.strategy JOIN features f ON f.name = s.feature"
    " WHERE CAST(u.used AS INTEGER) = ? AND u.live"
    " ORDER BY f.project, s.feature, s.environment, s.sort_order"
)


def _bad(message: str) -> ApiError:
    return ApiError(400, f"{INVALID}: {message}", "BadDataError", message)


def _schema(message: str) -> ApiError:
    """A refusal of the request schema: the message says to read `details`."""
    said = f"{INVALID}. Refer to the `details` list for more information."
    return ApiError(400, said, "BadDataError", message)


def _missing(path: str) -> ApiError:
    return _schema(f"The `{path}` property is required. It was not present on the data you sent.")


def _record(row: sqlite3.Row) -> shapes.SegmentRecord:
    """The segment as its routes and events say it (`project` only when it has one)."""
    out: dict[str, Any] = {"id": row["id"], "name": row["name"], "description": row["description"]}
    if row["project"] is not None:
        out["project"] = row["project"]
    out["constraints"] = json.loads(row["constraints"])
    out["createdBy"] = row["created_by"]
    out["createdAt"] = row["created_at"]
    return out  # type: ignore[return-value]


def _find(conn: sqlite3.Connection, raw: str) -> sqlite3.Row:
    row = None
    if raw.isascii() and raw.isdigit() and len(raw) <= 10:
        row = conn.execute("SELECT * FROM segments WHERE id = ?", (int(raw),)).fetchone()
    if row is None:
        raise ApiError(404, f'No segment exists with ID "{raw}"')
    return row


def _body(conn: sqlite3.Connection, body: Any) -> dict[str, Any]:
    given = require_object(body)
    if "name" not in given:
        raise _missing("/body/name")
    if "constraints" not in given:
        raise _missing("/body/constraints")
    name, description, project = given["name"], given.get("description"), given.get("project")
    if not isinstance(name, str):
        raise _bad('"name" must be a string')
    if not name.strip():
        raise _schema('"name" is not allowed to be empty.')
    if description is not None and not isinstance(description, str):
        raise _bad('"description" must be a string')
    if project is not None and not isinstance(project, str):
        raise _bad('"project" must be a string')
    if not isinstance(given["constraints"], list):
        raise _bad('"constraints" must be an array')
    constraints = [constraint(c) for c in given["constraints"]]
    if sum(len(c["values"]) for c in constraints) > SEGMENT_VALUES_MAX:
        raise _bad(f"Segments may not have more than {SEGMENT_VALUES_MAX} values")
    project = project or None  # Unleash stores "" as no project
    if project is not None:
        known = conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone()
        if known is None:  # real Unleash's foreign key, unhandled
            raise ApiError(
                500,
                'insert or update on table "segments" violates foreign key constraint'
                ' "segments_segment_project_id_fkey"',
                "UnknownError",
            )
    return {"name": name, "description": description, "project": project,
            "constraints": constraints}  # fmt: skip


def _name_taken(conn: sqlite3.Connection, name: str, other_than: int | None = None) -> None:
    found = conn.execute("SELECT id FROM segments WHERE name = ?", (name,)).fetchone()
    if found is not None and found["id"] != other_than:
        raise ApiError(409, "Segment name already exists", "NameExistsError")


def create(call: Call) -> shapes.SegmentRecord:
    with call.db.write() as conn:
        wanted = _body(conn, call.body)
        _name_taken(conn, wanted["name"])
        if conn.execute("SELECT count(*) FROM segments").fetchone()[0] >= SEGMENTS_MAX:
            raise exceeds_limit("segments", SEGMENTS_MAX)
        cursor = conn.execute(
            "INSERT INTO segments (name, description, constraints, project, created_by,"
            " created_at) VALUES (?,?,?,?,?,?)",
            (wanted["name"], wanted["description"], dumps(wanted["constraints"]),
             wanted["project"], call.caller.username, now_iso()),
        )  # fmt: skip
        row = conn.execute("SELECT * FROM segments WHERE id = ?", (cursor.lastrowid,)).fetchone()
        segment = _record(row)
        record(conn, call.caller, "segment-created", project=row["project"], data=segment)
    return segment


def get_one(call: Call) -> shapes.SegmentRecord:
    with call.db.read() as conn:
        return _record(_find(conn, call.path["id"]))


def update(call: Call) -> None:
    with call.db.write() as conn:
        row = _find(conn, call.path["id"])
        wanted = _body(conn, call.body)
        _name_taken(conn, wanted["name"], other_than=row["id"])
        if wanted["project"] is not None:
            others = sorted(
                {u[1] for u in conn.execute(USED_BY, (row["id"],))} - {wanted["project"]}
            )
            if others:
                said = "Segment is being used by strategies in other projects"
                raise _bad(f"Invalid project. {said}: {', '.join(others)}")
        before = _record(row)
        conn.execute(
            "UPDATE segments SET name = ?, description = ?, constraints = ?, project = ?"
            " WHERE id = ?",
            (wanted["name"], wanted["description"], dumps(wanted["constraints"]),
             wanted["project"], row["id"]),
        )  # fmt: skip
        after = _record(_find(conn, str(row["id"])))
        if after != before:  # a write that changes nothing records no event
            record(conn, call.caller, "segment-updated", project=wanted["project"], data=after,
                   pre_data=before)  # fmt: skip


def delete(call: Call) -> None:
    with call.db.write() as conn:
        row = _find(conn, call.path["id"])
        if conn.execute(USED_BY, (row["id"],)).fetchone() is not None:
            raise ApiError(409, "")  # real Unleash answers 409 with no body
        conn.execute("DELETE FROM segments WHERE id = ?", (row["id"],))
        record(conn, call.caller, "segment-deleted", project=row["project"],
               pre_data=_record(row))  # fmt: skip


def used_by(call: Call) -> shapes.SegmentStrategies:
    with call.db.read() as conn:
        row = _find(conn, call.path["id"])
        strategies: list[shapes.SegmentStrategy] = [
            {"id": s[0], "projectId": s[1], "featureName": s[2], "strategyName": s[3],
             "environment": s[4]}
            for s in conn.execute(USED_BY, (row["id"],))
        ]  # fmt: skip
    return {"strategies": strategies, "changeRequestStrategies": []}
