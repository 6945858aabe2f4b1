"""A project environment's default strategy, as real Unleash 6.10.1 to 8.2.0 keep it.

POST /api/admin/projects/:p/environments/:env/default-strategy with a strategy (real Unleash
has no GET or PUT of it: it is read in `GET /api/admin/environments/project/:p`, as the
environment's `defaultStrategy`, present only once set). Only `flexibleRollout` (400
otherwise, and without a name); 200 with what was stored; records `default-strategy-updated`
(project, environment; data: the strategy, preData: the one before, or null). An unknown
project or an environment not linked to it is a 404 here (real Unleash: a 500, "Cannot read
properties of undefined").

What it changes: no existing flag. A flag switched on in that environment with no enabled
strategy gets it (its `groupId`, when empty, the flag's name) instead of Unleash's built-in
flexibleRollout at 100 % (`feature_environments`); a flag created gets no strategy either way.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, require_object

OPTIONAL = ("title", "disabled", "segments", "variants")


def _strategy(body: Any) -> dict[str, Any]:
    body = require_object(body)
    name = body.get("name")
    if not isinstance(name, str):
        raise bad_request("The `/body/name` property is required. It was not present on the"
                          " data you sent.")  # fmt: skip
    if name != "flexibleRollout":
        raise bad_request(
            'Only "flexibleRollout" strategy can be used as a default strategy for an environment'
        )
    constraints, parameters = body.get("constraints", []), body.get("parameters", {})
    if not isinstance(constraints, list):
        raise bad_request("The `/body/constraints` property must be an array.")
    if not isinstance(parameters, dict) or not all(isinstance(v, str) for v in parameters.values()):
        raise bad_request("The `/body/parameters` property must be an object of strings.")
    stored = {"name": name, "constraints": constraints, "parameters": parameters}
    stored.update({k: body[k] for k in OPTIONAL if k in body})
    return stored


def stored_default(
    conn: sqlite3.Connection, project: str, environment: str
) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT default_strategy FROM project_environments WHERE project = ? AND environment = ?",
        (project, environment),
    ).fetchone()
    return json.loads(row[0]) if row is not None and row[0] else None


def set_default(call: Call) -> dict[str, Any]:
    project, environment = call.path["project"], call.path["environment"]
    stored = _strategy(call.body)
    with call.db.write() as conn:
        linked = conn.execute(
            "SELECT default_strategy FROM project_environments WHERE project = ?"
            " AND environment = ?",
            (project, environment),
        ).fetchone()
        if linked is None:
            raise not_found(f"Could not find environment {environment} in project {project}")
        before = json.loads(linked[0]) if linked[0] else None
        conn.execute(
            "UPDATE project_environments SET default_strategy = ? WHERE project = ?"
            " AND environment = ?",
            (dumps(stored), project, environment),
        )
        record(conn, call.caller, "default-strategy-updated", project=project,
               environment=environment, data=stored, pre_data=before)  # fmt: skip
    return stored
