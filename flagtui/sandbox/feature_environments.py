"""A flag switched on or off in one environment: POST .../features/:f/environments/:env/on|off.

Not one of the contract's operations: it follows real Unleash (OSS 8.2.0 and its source). The
checks come in Unleash's order: the flag is in the project (404), the environment is linked to
the project, so the flag has it (404 "Could not find environment ENV for feature: F"), the flag
is not archived (400 ArchivedFeatureError). Switching on where no strategy is active first adds
the default strategy (flexibleRollout at 100%, event `feature-strategy-add`). The answer is 200
with no body. `feature-environment-enabled`/`-disabled` (project, featureName, environment;
no data) is recorded, and delivered to subscribed integrations, only when the state changed.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

from flagtui.sandbox.default_strategy import stored_default
from flagtui.sandbox.errors import ApiError, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.features import feature_row
from flagtui.sandbox.inputs import Call


def switch_on(call: Call) -> None:
    _switch(call, True)


def switch_off(call: Call) -> None:
    _switch(call, False)


def _switch(call: Call, enabled: bool) -> None:
    with call.db.write() as conn:
        switch_in(conn, call, call.path["feature"], call.path["environment"], enabled)


def switch_in(
    conn: sqlite3.Connection, call: Call, name: str, environment: str, enabled: bool
) -> None:
    """One flag of `call`'s project switched, in the caller's transaction (the bulk route
    switches several in one, all or none)."""
    project = call.path["project"]
    row = feature_row(conn, project, name)
    linked = conn.execute(
        "SELECT 1 FROM project_environments WHERE project = ? AND environment = ?",
        (project, environment),
    ).fetchone()
    if linked is None:
        raise not_found(f"Could not find environment {environment} for feature: {name}")
    if row["archived_at"] is not None:
        raise ApiError(
            400, "Cannot perform this operation on archived features", "ArchivedFeatureError"
        )
    scope = {"project": project, "feature": name, "environment": environment}
    if enabled:
        _default_strategy_unless_active(conn, call, name, environment)
    current = conn.execute(
        "SELECT enabled FROM feature_environments WHERE feature = ? AND environment = ?",
        (name, environment),
    ).fetchone()
    if bool(current and current["enabled"]) == enabled:
        return  # nothing changed (a missing setting is off): no event, as in real Unleash
    conn.execute(
        "INSERT INTO feature_environments (feature, environment, enabled, last_seen_at,"
        " variants) VALUES (?, ?, ?, NULL, '[]') ON CONFLICT (feature, environment)"
        " DO UPDATE SET enabled = excluded.enabled",
        (name, environment, int(enabled)),
    )
    kind = "feature-environment-enabled" if enabled else "feature-environment-disabled"
    record(conn, call.caller, kind, **scope)


def _default_strategy_unless_active(
    conn: sqlite3.Connection, call: Call, name: str, environment: str
) -> None:
    """Unleash's rule: a flag switched on with no strategy, or only disabled ones, gets the
    project environment's default strategy first (`default_strategy`), else flexibleRollout
    at 100 %, so switching on means "on for everyone" unless the project says otherwise."""
    active = conn.execute(
        "SELECT 1 FROM strategies WHERE feature = ? AND environment = ? AND disabled = 0",
        (name, environment),
    ).fetchone()
    if active is not None:
        return
    strategy: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "name": "flexibleRollout",
        "title": None,
        "disabled": False,
        "constraints": [],
        "parameters": {"groupId": name, "rollout": "100", "stickiness": "default"},
        "variants": [],
        "sortOrder": 0,
        "segments": [],
    }
    project_default = stored_default(conn, call.path["project"], environment)
    if project_default is not None:  # the project's, its empty groupId the flag's name
        parameters = {**project_default["parameters"]}
        parameters["groupId"] = parameters.get("groupId") or name
        strategy.update({k: v for k, v in project_default.items() if k != "disabled"})
        strategy["parameters"] = parameters
    conn.execute(
        "INSERT INTO strategies (id, feature, environment, name, title, disabled, sort_order,"
        " parameters, constraints, segments, variants) VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)",
        (
            strategy["id"], name, environment, strategy["name"], strategy["title"] or "",
            json.dumps(strategy["parameters"]), json.dumps(strategy["constraints"]),
            json.dumps(strategy["segments"]), json.dumps(strategy["variants"]),
        ),
    )  # fmt: skip
    record(
        conn,
        call.caller,
        "feature-strategy-add",
        project=call.path["project"],
        feature=name,
        environment=environment,
        data=strategy,
    )
