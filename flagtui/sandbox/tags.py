"""Tags on flags and tag types, as real Unleash 6.10.1, 7.5.1 and 8.2.0 answer them.

- A tag is `{type, value}`: each 2..50 characters (400 otherwise, checked before the flag),
  its type one of the tag types (400 "Tag type 'x' does not exist"); an unknown flag is a 404
  "No feature flag found".
- POST /api/admin/features/:f/tags: 201 with the tag. Records `tag-created` (data: the tag)
  the first time a tag exists anywhere, then `feature-tagged` (data: the tag), even when the
  flag already had it (real Unleash records it again; the flag keeps it once).
- DELETE /api/admin/features/:f/tags/:type/:value: 200 with no body, and `feature-untagged`
  (preData: the tag) whether or not the flag had it, as real Unleash does.
- PUT /api/admin/features/:f/tags `{addedTags, removedTags}`: 200 with the flag's tags after;
  each added tag as POST records it, each removed one as DELETE.
- PUT /api/admin/projects/:p/tags `{features, tags: {addedTags, removedTags}}`: the same on
  several flags, 200 with no body; an unknown flag is a 404 here (real Unleash: a 500 from
  its database, nothing applied), a flag of another project too.
- GET /api/admin/tag-types `{version, tagTypes}`; GET /api/admin/tag-types/:name
  `{version, tagType}` (404 "Could not find tag-type"); POST /api/admin/tag-types
  `{name, description?, icon?}`: 201 with what was stored, `tag-type-created`; a name that is
  not URL-friendly or not 2..50 characters long is a 400, a taken one a 409 NameExistsError;
  POST /api/admin/tag-types/validate: 200 `{valid: true, tagType}` or the same 400/409.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flagtui.contract import TAG_MAX, TAG_MIN, is_tag_type_name
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import ApiError, bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.features import search_text
from flagtui.sandbox.inputs import Call, require_object


def _tag(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise bad_request(f"{where} must be an object with type and value")
    tag = {}
    for key in ("type", "value"):
        text = value.get(key)
        if not isinstance(text, str):
            raise bad_request(f"{where}/{key} is required and must be a string")
        if not TAG_MIN <= len(text) <= TAG_MAX:
            raise bad_request(
                f"The `{where}/{key}` property must have {TAG_MIN} to {TAG_MAX} characters."
                f" You sent {json.dumps(text)}."
            )
        tag[key] = text
    return tag


def _tags(value: Any, where: str) -> list[dict[str, str]]:
    if not isinstance(value, list):
        raise bad_request(f"{where} is required and must be an array of tags")
    return [_tag(t, f"{where}/{i}") for i, t in enumerate(value)]


def _known_types(conn: sqlite3.Connection, tags: list[dict[str, str]]) -> None:
    for tag in tags:
        if not conn.execute("SELECT 1 FROM tag_types WHERE name = ?", (tag["type"],)).fetchone():
            raise bad_request(f"Tag type '{tag['type']}' does not exist")


def _flag(conn: sqlite3.Connection, name: str, project: str | None = None) -> sqlite3.Row:
    row = conn.execute(
        "SELECT name, project, description, tags FROM features WHERE name = ?", (name,)
    ).fetchone()
    if row is None or (project is not None and row["project"] != project):
        raise not_found("No feature flag found")
    return row


def _store(conn: sqlite3.Connection, row: sqlite3.Row, tags: list[dict[str, str]]) -> None:
    conn.execute(
        "UPDATE features SET tags = ?, search_text = ? WHERE name = ?",
        (dumps(tags), search_text(row["name"], row["description"], tags), row["name"]),
    )


def _change(
    call: Call, conn: sqlite3.Connection, name: str, added: list[dict[str, str]],
    removed: list[dict[str, str]], project: str | None = None,
) -> list[dict[str, str]]:  # fmt: skip
    """Add and remove tags on one flag, each with real Unleash's events; its tags after."""
    row = _flag(conn, name, project)
    tags = json.loads(row["tags"])
    scope = {"project": row["project"], "feature": name}
    for tag in added:
        new = conn.execute("INSERT OR IGNORE INTO tags VALUES (?, ?)", (tag["type"], tag["value"]))
        if new.rowcount:
            record(conn, call.caller, "tag-created", data=tag)
        if tag not in tags:
            tags.append(tag)
        record(conn, call.caller, "feature-tagged", data=tag, **scope)
    for tag in removed:
        tags = [t for t in tags if t != tag]
        record(conn, call.caller, "feature-untagged", pre_data=tag, **scope)
    _store(conn, row, tags)
    return tags


def add_tag(call: Call) -> dict[str, str]:
    tag = _tag(require_object(call.body), "/body")
    with call.db.write() as conn:
        _known_types(conn, [tag])
        _change(call, conn, call.path["feature"], [tag], [])
    return tag


def remove_tag(call: Call) -> None:
    tag = {"type": call.path["type"], "value": call.path["value"]}
    with call.db.write() as conn:
        _change(call, conn, call.path["feature"], [], [tag])


def _update_body(body: Any, where: str) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    body = require_object(body)
    return _tags(body.get("addedTags"), f"{where}/addedTags"), _tags(
        body.get("removedTags"), f"{where}/removedTags"
    )


def update_tags(call: Call) -> dict[str, Any]:
    added, removed = _update_body(call.body, "/body")
    with call.db.write() as conn:
        _known_types(conn, added)
        tags = _change(call, conn, call.path["feature"], added, removed)
    return {"version": 1, "tags": tags}


def bulk_tags(call: Call) -> None:
    body = require_object(call.body)
    features = body.get("features")
    if not isinstance(features, list) or not all(isinstance(f, str) and f for f in features):
        raise bad_request("/body/features is required and must be an array of flag names")
    added, removed = _update_body(body.get("tags"), "/body/tags")
    project = call.path["project"]
    with call.db.write() as conn:
        _known_types(conn, added)
        for name in dict.fromkeys(features):
            _change(call, conn, name, added, removed, project)


def _type_record(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "name": row["name"],
        "description": row["description"],
        "icon": row["icon"],
        "color": row["color"],
    }


def list_types(call: Call) -> dict[str, Any]:
    with call.db.read() as conn:
        rows = conn.execute("SELECT * FROM tag_types ORDER BY name").fetchall()
    return {"version": 1, "tagTypes": [_type_record(r) for r in rows]}


def get_type(call: Call) -> dict[str, Any]:
    with call.db.read() as conn:
        row = conn.execute(
            "SELECT * FROM tag_types WHERE name = ?", (call.path["name"],)
        ).fetchone()
    if row is None:
        raise not_found("Could not find tag-type")
    return {"version": 1, "tagType": _type_record(row)}


def _new_type(conn: sqlite3.Connection, body: Any) -> dict[str, Any]:
    body = require_object(body)
    name = body.get("name")
    if not isinstance(name, str) or not TAG_MIN <= len(name) <= TAG_MAX:
        raise bad_request(f'"name" length must be {TAG_MIN} to {TAG_MAX} characters long')
    if not is_tag_type_name(name):
        raise bad_request(f'"name" must be URL friendly. You provided {json.dumps(name)}.')
    for key in ("description", "icon"):
        if body.get(key) is not None and not isinstance(body[key], str):
            raise bad_request(f'"{key}" must be a string')
    if conn.execute("SELECT 1 FROM tag_types WHERE name = ?", (name,)).fetchone():
        raise ApiError(
            409, f"There already exists a tag-type with the name {name}", "NameExistsError"
        )
    stored = {"name": name, "description": body.get("description") or ""}
    if body.get("icon") is not None:
        stored["icon"] = body["icon"]
    return stored


def create_type(call: Call) -> dict[str, Any]:
    with call.db.write() as conn:
        stored = _new_type(conn, call.body)
        conn.execute(
            "INSERT INTO tag_types VALUES (?, ?, ?, NULL)",
            (stored["name"], stored["description"], stored.get("icon")),
        )
        record(conn, call.caller, "tag-type-created", data=stored)
    return stored


def validate_type(call: Call) -> dict[str, Any]:
    with call.db.read() as conn:
        stored = _new_type(conn, call.body)
    return {"valid": True, "tagType": stored}
