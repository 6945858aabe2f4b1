"""A flag's dependency on a parent flag, as real Unleash 8.2.0 answers it (6.10.1 and 7.5.1
differ where said).

- POST /api/admin/projects/:p/features/:child/dependencies `{feature, enabled?, variants?}`:
  200 with no body. A flag has one parent: a new one replaces the old. Refused, in real
  Unleash's order, with 403 InvalidOperationError: the child itself ("A feature flag cannot
  depend on itself."), a child other flags depend on, a parent that has a parent of its own
  ("Transitive dependency detected. …"), a parent that is not a live flag ("No active feature
  X exists"); then 404 when child and parent are not both flags of the project (6.10.1 and
  7.5.1: a 500 from their database for an unknown child). Records `feature-dependency-added`
  (data: the parent's name, `enabled` (true unless sent false) and `variants` when sent).
- DELETE …/dependencies/:parent: 200 and `feature-dependency-removed` (data `{feature}`); no
  such dependency: 404 (6.10.1 and 7.5.1: 200 and the event all the same).
- DELETE …/dependencies: 200 and `feature-dependencies-removed`; none: 404 (6.10.1, 7.5.1:
  200, no event).
SDKs read the dependency from the client API (`client_api`), with `variants` only when the
parent must be enabled.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import ApiError, bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, require_object


def _refused(message: str) -> ApiError:
    return ApiError(403, message, "InvalidOperationError")


def _body(body: Any) -> tuple[str, bool, list[str] | None]:
    body = require_object(body)
    parent, enabled, variants = body.get("feature"), body.get("enabled", True), body.get("variants")
    if not isinstance(parent, str) or not parent:
        raise bad_request("The `/body/feature` property is required and must be a string.")
    if not isinstance(enabled, bool):
        raise bad_request("The `/body/enabled` property must be boolean.")
    if variants is not None and (
        not isinstance(variants, list) or not all(isinstance(v, str) for v in variants)
    ):
        raise bad_request("The `/body/variants` property must be an array of strings.")
    return parent, enabled, variants


def _live(conn: sqlite3.Connection, name: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        "SELECT name, project, parent FROM features WHERE name = ? AND archived_at IS NULL",
        (name,),
    ).fetchone()
    return row


def add(call: Call) -> None:
    project, child = call.path["project"], call.path["feature"]
    parent, enabled, variants = _body(call.body)
    with call.db.write() as conn:
        if parent == child:
            raise _refused("A feature flag cannot depend on itself.")
        if conn.execute("SELECT 1 FROM features WHERE parent = ?", (child,)).fetchone():
            raise _refused(
                "Transitive dependency detected. Cannot add a dependency to the feature that"
                " other features depend on."
            )
        found = _live(conn, parent)
        if found is not None and found["parent"]:
            raise _refused(
                "Transitive dependency detected. Cannot add a dependency to the feature that"
                " has parent dependency."
            )
        if found is None:
            raise _refused(f"No active feature {parent} exists")
        own = _live(conn, child)
        if own is None or own["project"] != project or found["project"] != project:
            raise not_found(
                "Cannot add the dependency. Both the parent and the child feature must belong"
                f' to project "{project}".'
            )
        stored = {"feature": parent, "enabled": enabled, "variants": variants or []}
        conn.execute(
            "UPDATE features SET parent = ?, dependency = ? WHERE name = ?",
            (parent, dumps(stored), child),
        )
        data: dict[str, Any] = {"feature": parent, "enabled": enabled}
        if variants is not None:
            data["variants"] = variants
        record(conn, call.caller, "feature-dependency-added", project=project, feature=child,
               data=data)  # fmt: skip


def _current(conn: sqlite3.Connection, project: str, child: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT dependency FROM features WHERE name = ? AND project = ?", (child, project)
    ).fetchone()
    return json.loads(row["dependency"]) if row is not None and row["dependency"] else None


def _clear(conn: sqlite3.Connection, child: str) -> None:
    conn.execute("UPDATE features SET parent = NULL, dependency = NULL WHERE name = ?", (child,))


def remove(call: Call) -> None:
    project, child, parent = call.path["project"], call.path["feature"], call.path["parent"]
    with call.db.write() as conn:
        current = _current(conn, project, child)
        if current is None or current["feature"] != parent:
            raise not_found(
                f'No dependency on "{parent}" for feature "{child}" in project "{project}".'
            )
        _clear(conn, child)
        record(conn, call.caller, "feature-dependency-removed", project=project, feature=child,
               data={"feature": parent})  # fmt: skip


def remove_all(call: Call) -> None:
    project, child = call.path["project"], call.path["feature"]
    with call.db.write() as conn:
        if _current(conn, project, child) is None:
            raise not_found(
                f'Feature "{child}" has no dependencies to remove in project "{project}".'
            )
        _clear(conn, child)
        record(conn, call.caller, "feature-dependencies-removed", project=project, feature=child)
