"""Context fields as real Unleash 6.10.1, 7.5.1 and 8.2.0 keep them (checked against each).

- `GET /api/admin/context`: every field by name, with how many live flags and projects use it
  in a constraint. `GET /api/admin/context/:name`: one, without those counts; unknown: 404
  "Could not find context field".
- `POST /api/admin/context` (201, the field): the body's shape first (an object; `name` a
  string; `stickiness` a boolean; `sortOrder` an integer; `legalValues` objects), then the
  name (not empty, URL-friendly, at most 100 characters), a description of at most 250
  characters (null is stored as ""), legal values of 1 to 100 characters each given once, then
  a name taken: 409 NameExistsError. Unknown keys are dropped. Records context-field-created;
  its data is the body as validated (`sortOrder` left out, `stickiness` false when not given).
- `PUT /api/admin/context/:name` (200, no body): the shape, then an unknown field (404 "Could
  not find context field with name …"), then the values. The legal values and the stickiness
  become what is sent (none, false when absent), a description absent is kept, and the sort
  order becomes 0 whatever is sent, as on real Unleash. Records context-field-updated (data:
  the body as validated, with the name; preData: name, stickiness, description, legalValues),
  unless data and preData are equal.
- `DELETE /api/admin/context/:name` (200, no body): unknown 404; in use by a strategy of a
  live flag 409 ConflictError, as 7.5.1 and 8.2.0 answer (6.10.1 deletes it and leaves the
  constraints). Records context-field-deleted (preData: the field with createdAt and sortOrder).
- `GET /api/admin/context/:name/strategies`: `{strategies: [{id, projectId, featureName,
  strategyName, environment}]}`, the strategies of live flags with a constraint on it (an
  unknown name: none).

Errors are real Unleash's: 400 BadDataError with its sentence in `details`.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flagtui.contract import (
    CONTEXT_DESCRIPTION_MAX,
    INT32_MAX,
    LEGAL_VALUE_MAX,
    NAME_MAX,
    is_flag_name,
)
from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import ApiError
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, is_int

BAD_DATA = (
    "Request validation failed: your request body or params contain invalid data. Refer to the"
    " `details` list for more information."
)
IN_USE = (
    "This context field is in use by existing flags. To delete it, first remove its usage from"
    " all flags."
)
WRITABLE = ("description", "legalValues", "stickiness", "project")


def bad_data(details: str) -> ApiError:
    return ApiError(400, BAD_DATA, "BadDataError", details)


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _record(row: sqlite3.Row) -> shapes.ContextFieldRecord:
    return {
        "name": row["name"],
        "description": row["description"],
        "stickiness": bool(row["stickiness"]),
        "sortOrder": row["sort_order"],
        "legalValues": json.loads(row["legal_values"]),
        "createdAt": row["created_at"],
    }


def _row(conn: sqlite3.Connection, name: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM context_fields WHERE name = ?", (name,)
    ).fetchone()
    return row


def legal_values(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Each field's legal values (what a constraint on it may use), fields without none left
    out."""
    return {
        r["name"]: [v["value"] for v in json.loads(r["legal_values"])]
        for r in conn.execute("SELECT name, legal_values FROM context_fields")
        if r["legal_values"] != "[]"
    }


def list_fields(call: Call) -> list[shapes.ContextField]:
    with call.db.read() as conn:
        usage = {
            r[0]: (r[1], r[2])
            for r in conn.execute(
                "SELECT used, count(DISTINCT feature), count(DISTINCT project)"
                " FROM strategy_context_fields WHERE live GROUP BY used"
            )
        }
        rows = conn.execute("SELECT * FROM context_fields ORDER BY name").fetchall()
    return [
        {
            **_record(row),
            "usedInProjects": usage.get(row["name"], (0, 0))[1],
            "usedInFeatures": usage.get(row["name"], (0, 0))[0],
        }
        for row in rows
    ]


def get_one(call: Call) -> shapes.ContextFieldRecord:
    with call.db.read() as conn:
        row = _row(conn, call.path["name"])
    if row is None:
        raise ApiError(404, "Could not find context field", details="Could not find context field")
    return _record(row)


def _shape(body: Any) -> dict[str, Any]:
    """The request schema's checks (real Unleash's first, before anything is looked up)."""
    if not isinstance(body, dict):
        raise bad_data(f"The `/body` property must be object. You sent {_shown(body)}.")
    kinds: dict[str, type | tuple[type, ...]] = {
        "name": str,
        "description": (str, type(None)),
        "stickiness": bool,
    }
    for key, kind in kinds.items():
        if key in body and not isinstance(body[key], kind):
            said = "boolean" if kind is bool else "string"
            raise bad_data(
                f"The `/body/{key}` property must be {said}. You sent {_shown(body[key])}."
            )
    order = body.get("sortOrder", 0)
    if not is_int(order) or abs(order) > INT32_MAX:  # a PostgreSQL integer there
        raise bad_data(
            f"The `/body/sortOrder` property must be integer. You sent {_shown(body['sortOrder'])}."
        )
    legal = body.get("legalValues", [])
    if not isinstance(legal, list):
        raise bad_data(f"The `/body/legalValues` property must be array. You sent {_shown(legal)}.")
    for i, item in enumerate(legal):
        if not isinstance(item, dict):
            raise bad_data(
                f"The `/body/legalValues/{i}` property must be object. You sent {_shown(item)}."
            )
        if not isinstance(item.get("description", ""), str):
            said = f"The `/body/legalValues/{i}/description` property must be string."
            raise bad_data(said)
        if not isinstance(item.get("value"), str):
            raise bad_data(f"The `/body/legalValues/{i}/value` property must be string.")
    return body


def _too_long(key: str, most: int, value: str) -> ApiError:
    said = f"length must be less than or equal to {most} characters long"
    return bad_data(f'"{key}" {said}. You provided "{value}".')


def _validated(body: dict[str, Any], name: str) -> dict[str, Any]:
    """The body as Unleash's context schema leaves it (joi): its checks, unknown keys dropped,
    `stickiness` false by default; raises BadDataError with joi's sentence."""
    if name == "":
        raise bad_data('"name" is not allowed to be empty.')
    if len(name) > NAME_MAX:
        raise _too_long("name", NAME_MAX, name)
    if not is_flag_name(name):
        raise bad_data(f'"name" must be URL friendly. You provided "{name}".')
    value: dict[str, Any] = {k: body[k] for k in ("name", *WRITABLE) if k in body}
    value["name"] = name
    if "description" in value:
        value["description"] = value["description"] or ""
        if len(value["description"]) > CONTEXT_DESCRIPTION_MAX:
            raise _too_long("description", CONTEXT_DESCRIPTION_MAX, value["description"])
    seen: set[str] = set()
    for i, item in enumerate(value.get("legalValues", [])):
        legal = item["value"]
        if legal == "":
            raise bad_data(f'"legalValues[{i}].value" is not allowed to be empty.')
        if len(legal) > LEGAL_VALUE_MAX:
            raise _too_long(f"legalValues[{i}].value", LEGAL_VALUE_MAX, legal)
        if legal in seen:
            raise bad_data(
                f'"legalValues[{i}]" contains a duplicate value. You provided {_shown(item)}.'
            )
        seen.add(legal)
    if "legalValues" in value:
        value["legalValues"] = [
            {k: item[k] for k in ("value", "description") if k in item}
            for item in value["legalValues"]
        ]
    value.setdefault("stickiness", False)
    return value


def create(call: Call) -> shapes.ContextFieldRecord:
    body = _shape(call.body)
    if "name" not in body:
        missing = "The `/body/name` property is required. It was not present on the data you sent."
        raise bad_data(missing)
    value = _validated(body, body["name"])
    with call.db.write() as conn:
        if _row(conn, value["name"]) is not None:
            taken = "A context field with that name already exist"
            raise ApiError(409, taken, "NameExistsError", taken)
        conn.execute(
            "INSERT INTO context_fields (name, description, stickiness, sort_order,"
            " legal_values, created_at) VALUES (?,?,?,?,?,?)",
            (
                value["name"],
                value.get("description"),
                int(value["stickiness"]),
                body.get("sortOrder", 0),
                dumps(value.get("legalValues", [])),
                now_iso(),
            ),
        )
        record(conn, call.caller, "context-field-created", data=value)
        row = _row(conn, value["name"])
    assert row is not None
    return _record(row)


def _missing(name: str) -> ApiError:
    said = f"Could not find context field with name {name}"
    return ApiError(404, said, details=said)


def update(call: Call) -> None:
    name = call.path["name"]
    body = _shape(call.body)
    with call.db.write() as conn:
        row = _row(conn, name)
        if row is None:
            raise _missing(name)
        value = _validated(body, name)
        before = _record(row)
        pre = {k: before[k] for k in ("name", "stickiness", "description", "legalValues")}
        description = value.get("description", before["description"])
        conn.execute(
            "UPDATE context_fields SET description = ?, stickiness = ?, sort_order = 0,"
            " legal_values = ? WHERE name = ?",
            (description, int(value["stickiness"]), dumps(value.get("legalValues", [])), name),
        )
        if value != pre:
            record(conn, call.caller, "context-field-updated", data=value, pre_data=pre)


def delete(call: Call) -> None:
    name = call.path["name"]
    with call.db.write() as conn:
        row = _row(conn, name)
        if row is None:
            raise _missing(name)
        if conn.execute(
            "SELECT 1 FROM strategy_context_fields WHERE used = ? AND live LIMIT 1", (name,)
        ).fetchone():
            raise ApiError(409, IN_USE, "ConflictError", IN_USE)
        before = _record(row)
        pre = {
            "name": name,
            "createdAt": before["createdAt"],
            "sortOrder": before["sortOrder"],
            "stickiness": before["stickiness"],
            "description": before["description"],
            "legalValues": before["legalValues"],
        }
        conn.execute("DELETE FROM context_fields WHERE name = ?", (name,))
        record(conn, call.caller, "context-field-deleted", pre_data=pre)


def strategies(call: Call) -> shapes.ContextFieldStrategies:
    with call.db.read() as conn:
        rows = conn.execute(
            "SELECT s.id, u.project, s.feature, s.name, s.environment"
            " FROM strategy_context_fields u JOIN strategies s ON s.id = u.strategy"
            " WHERE u.used = ? AND u.live GROUP BY s.id"
            " ORDER BY s.feature, s.environment, s.sort_order",
            (call.path["name"],),
        ).fetchall()
    return {
        "strategies": [
            {
                "id": r[0],
                "projectId": r[1],
                "featureName": r[2],
                "strategyName": r[3],
                "environment": r[4],
            }
            for r in rows
        ]
    }
