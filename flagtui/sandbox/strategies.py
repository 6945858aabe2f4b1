"""A flag's strategies in one environment: real Unleash's strategy routes.

Under `/api/admin/projects/:p/features/:f/environments/:env/strategies`: GET (list, in
order), POST (add: 200 with the strategy; event feature-strategy-add), GET/PUT/PATCH/DELETE
`/:id`, and POST `/set-sort-order` (`[{id, sortOrder}]`; event strategy-order-changed with
`{strategyIds}` before and after). What real Unleash 8.2 does, kept here:

- Add: an unknown flag (in the project) is a 404; an unknown strategy type a 400 ("Could
  not find strategy type with name …"); an unknown segment a 404; an environment not linked to
  the project a 400; more than 30 strategies in one environment a 400 ExceedsLimitError.
  flexibleRollout's parameters get their defaults (rollout 100, stickiness default, groupId
  the flag's name). The sort order defaults to one after the last. Adding does not switch the
  environment on. An archived flag is not refused (real Unleash does not check).
- PUT replaces: constraints, variants and parameters become what is sent (absent: empty;
  flexibleRollout's defaults when the name is sent), title and disabled stay when absent or
  null, segments stay when absent; the sort order is not changed. PATCH applies RFC 6902
  operations to the strategy as GET answers it and saves the result the same way. Both record
  feature-strategy-update (data and preData: the strategy after and before), even when nothing
  changed, as real Unleash does.
- DELETE: 200 with no body; an unknown id is a 404 (as on real Unleash 8.2.0). A strategy of another
  flag or project: 403 InvalidOperationError (on PUT and PATCH too; GET answers 403 too).
  Event feature-strategy-remove (preData: the strategy).
- When a change leaves an environment without an enabled strategy (all disabled, or none),
  the environment is switched off first (feature-environment-disabled), as real Unleash does.
- A strategy without a title has title "" here (real Unleash: null).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

import jsonpatch
import jsonpointer

from flagtui.contract import INT32_MAX, STRATEGIES_PER_ENVIRONMENT_MAX
from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox import strategy_rules as rules
from flagtui.sandbox.auth import Caller
from flagtui.sandbox.catalog import STRATEGY_NAMES
from flagtui.sandbox.context_fields import legal_values
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import ApiError, bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.features import feature_row
from flagtui.sandbox.inputs import Call, require_object

BODY_KEYS = {"name", "title", "disabled", "sortOrder", "constraints", "variants", "parameters"}


def strategy_record(row: sqlite3.Row) -> shapes.FeatureStrategy:
    return {
        "id": row["id"],
        "name": row["name"],
        "title": row["title"],
        "disabled": bool(row["disabled"]),
        "sortOrder": row["sort_order"],
        "segments": json.loads(row["segments"]),
        "constraints": json.loads(row["constraints"]),
        "variants": json.loads(row["variants"]),
        "parameters": json.loads(row["parameters"]),
    }


def _linked(conn: sqlite3.Connection, project: str, environment: str) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM project_environments WHERE project = ? AND environment = ?",
            (project, environment),
        ).fetchone()
        is not None
    )


def _in_order(conn: sqlite3.Connection, feature: str, environment: str) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM strategies WHERE feature = ? AND environment = ? ORDER BY sort_order, id",
        (feature, environment),
    ).fetchall()


def list_for_environment(call: Call) -> list[shapes.FeatureStrategy]:
    project, name, env = call.path["project"], call.path["feature"], call.path["environment"]
    with call.db.read() as conn:
        feature_row(conn, project, name)
        if not _linked(conn, project, env):
            raise not_found(f"Feature {name} does not have environment {env}")
        return [strategy_record(r) for r in _in_order(conn, name, env)]


def _strategy_of(conn: sqlite3.Connection, call: Call) -> sqlite3.Row:
    """The strategy of the path; 404 unknown, 403 when it belongs to another flag or project."""
    strategy_id = call.path["id"]
    row = conn.execute("SELECT * FROM strategies WHERE id = ?", (strategy_id,)).fetchone()
    if row is None:
        raise not_found(f"Could not find strategy with id {strategy_id}")
    _belongs(conn, call, row)
    return row


def _belongs(conn: sqlite3.Connection, call: Call, row: sqlite3.Row) -> None:
    project = conn.execute("SELECT project FROM features WHERE name = ?", (row["feature"],))
    if row["feature"] != call.path["feature"] or project.fetchone()[0] != call.path["project"]:
        raise ApiError(
            403,
            "You can not change the featureName for an activation strategy.",
            "InvalidOperationError",
        )


def get_one(call: Call) -> shapes.FeatureStrategy:
    with call.db.read() as conn:
        return strategy_record(_strategy_of(conn, call))


def _check_shape(body: dict[str, Any]) -> None:
    """The request schema's types (real Unleash checks them before anything else)."""
    if "name" in body and not isinstance(body["name"], str):
        raise bad_request('"name" must be a string')
    if body.get("title") is not None and not isinstance(body["title"], str):
        raise bad_request('"title" must be a string or null')
    if body.get("disabled") is not None and not isinstance(body["disabled"], bool):
        raise bad_request('"disabled" must be a boolean or null')
    _check_order(body.get("sortOrder"))


def _check_order(order: Any) -> None:
    """A number the sort order column holds (real Unleash's is a PostgreSQL integer)."""
    if order is None:
        return
    if not isinstance(order, int | float) or isinstance(order, bool):
        raise bad_request('"sortOrder" must be a number')
    if not -INT32_MAX - 1 <= order <= INT32_MAX:
        raise bad_request(f'"sortOrder" must be between {-INT32_MAX - 1} and {INT32_MAX}')


def _parameters(name: str | None, feature: str, given: Any) -> dict[str, str]:
    params = rules.parameters(given)
    if name == "flexibleRollout":  # real Unleash's parametersWithDefaults
        params = {
            **params,
            "rollout": params.get("rollout", "100"),
            "stickiness": params.get("stickiness") or "default",
            "groupId": params.get("groupId") or feature,
        }
    return params


def add(call: Call) -> shapes.FeatureStrategy:
    body = require_object(call.body)
    _check_shape(body)
    if not isinstance(body.get("name"), str):
        raise bad_request('"name" is required: the strategy type')
    project, name, env = call.path["project"], call.path["feature"], call.path["environment"]
    with call.db.write() as conn:
        feature_row(conn, project, name)
        if body["name"] not in STRATEGY_NAMES:
            raise bad_request(f"Could not find strategy type with name {body['name']}")
        segments = rules.segment_ids(conn, body.get("segments")) or []
        constraints = rules.constraints(body.get("constraints"), (), legal_values(conn))
        variants = rules.variants(body.get("variants"))
        parameters = _parameters(body["name"], name, body.get("parameters"))
        existing = _in_order(conn, name, env)
        if len(existing) >= STRATEGIES_PER_ENVIRONMENT_MAX:
            raise rules.exceeds_limit("strategy", STRATEGIES_PER_ENVIRONMENT_MAX)
        if not _linked(conn, project, env):
            raise bad_request("You have not added the current environment to the project")
        order = body.get("sortOrder")
        if order is None:
            order = max((r["sort_order"] for r in existing), default=-1) + 1
        strategy_id = str(uuid.uuid4())
        conn.execute(
            "INSERT INTO strategies (id, feature, environment, name, title, disabled,"
            " sort_order, parameters, constraints, segments, variants)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                strategy_id,
                name,
                env,
                body["name"],
                body.get("title") or "",
                int(bool(body.get("disabled"))),
                int(order),
                dumps(parameters),
                dumps(constraints),
                dumps(segments),
                dumps(variants),
            ),
        )
        row = conn.execute("SELECT * FROM strategies WHERE id = ?", (strategy_id,)).fetchone()
        created = strategy_record(row)
        scope = {"project": project, "feature": name, "environment": env}
        record(conn, call.caller, "feature-strategy-add", data=created, **scope)
        return created


def _save(
    conn: sqlite3.Connection, call: Call, row: sqlite3.Row, body: dict[str, Any]
) -> shapes.FeatureStrategy:
    """PUT's rules (see the module's docstring), shared by PATCH."""
    _check_shape(body)
    if "name" in body and body["name"] not in STRATEGY_NAMES:
        raise bad_request(f"Could not find strategy type with name {body['name']}")
    segments = rules.segment_ids(conn, body.get("segments"))
    before = strategy_record(row)
    constraints = rules.constraints(
        body.get("constraints"), before["constraints"], legal_values(conn)
    )
    variants = rules.variants(body.get("variants"))
    parameters = _parameters(body.get("name"), row["feature"], body.get("parameters"))
    title = before["title"] if body.get("title") is None else body["title"]
    disabled = before["disabled"] if body.get("disabled") is None else body["disabled"]
    conn.execute(
        "UPDATE strategies SET name = ?, title = ?, disabled = ?, parameters = ?,"
        " constraints = ?, variants = ?, segments = ? WHERE id = ?",
        (
            body.get("name", row["name"]),
            title,
            int(disabled),
            dumps(parameters),
            dumps(constraints),
            dumps(variants),
            dumps(before["segments"] if segments is None else segments),
            row["id"],
        ),
    )
    after = strategy_record(
        conn.execute("SELECT * FROM strategies WHERE id = ?", (row["id"],)).fetchone()
    )
    scope = _scope(call)
    record(conn, call.caller, "feature-strategy-update", data=after, pre_data=before, **scope)
    switch_off_unless_active(conn, call.caller, **scope)
    return after


def _scope(call: Call) -> dict[str, str]:
    path = call.path
    return {
        "project": path["project"],
        "feature": path["feature"],
        "environment": path["environment"],
    }


def update(call: Call) -> shapes.FeatureStrategy:
    body = require_object(call.body)
    with call.db.write() as conn:
        return _save(conn, call, _strategy_of(conn, call), body)


def patch(call: Call) -> shapes.FeatureStrategy:
    operations = call.body
    if not isinstance(operations, list) or not all(isinstance(o, dict) for o in operations):
        raise bad_request("The request body must be an array of JSON patch operations")
    with call.db.write() as conn:
        row = _strategy_of(conn, call)
        try:
            patched = jsonpatch.JsonPatch(operations).apply(dict(strategy_record(row)))
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as error:
            raise bad_request(f"The patch could not be applied: {error}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
            raise bad_request(f"The patch could not be applied: {error}") from None
        if not isinstance(patched, dict) or not isinstance(patched.get("name"), str):
            raise bad_request("The patched strategy needs a string name")
        body = {k: v for k, v in patched.items() if k in BODY_KEYS or k == "segments"}
        return _save(conn, call, row, body)


def delete(call: Call) -> None:
    with call.db.write() as conn:
        row = conn.execute("SELECT * FROM strategies WHERE id = ?", (call.path["id"],)).fetchone()
        if row is None:
            raise not_found(f"Could not find strategy with id {call.path['id']}")
        _belongs(conn, call, row)
        conn.execute("DELETE FROM strategies WHERE id = ?", (row["id"],))
        scope = _scope(call)
        switch_off_unless_active(conn, call.caller, **scope)
        pre_data = strategy_record(row)
        record(conn, call.caller, "feature-strategy-remove", pre_data=pre_data, **scope)


def set_sort_order(call: Call) -> None:
    body = call.body
    if not isinstance(body, list):
        raise bad_request("The request body must be an array of {id, sortOrder}")
    for item in body:
        if not isinstance(item, dict) or set(item) != {"id", "sortOrder"}:
            raise bad_request("Each item must be {id, sortOrder} and nothing else")
        if not isinstance(item["id"], str) or item["sortOrder"] is None:
            raise bad_request('"id" must be a string and "sortOrder" a number')
        _check_order(item["sortOrder"])
    project, name, env = call.path["project"], call.path["feature"], call.path["environment"]
    with call.db.write() as conn:
        feature_row(conn, project, name)
        if not _linked(conn, project, env):
            raise not_found(f"Feature {name} does not have environment {env}")
        before = [r["id"] for r in _in_order(conn, name, env)]
        if not all(item["id"] in before for item in body):
            raise bad_request("trying to change strategies for environment via update sortOrder")
        for item in body:
            conn.execute(
                "UPDATE strategies SET sort_order = ? WHERE id = ?",
                (int(item["sortOrder"]), item["id"]),
            )
        after = [r["id"] for r in _in_order(conn, name, env)]
        record(
            conn,
            call.caller,
            "strategy-order-changed",
            data={"strategyIds": after},
            pre_data={"strategyIds": before},
            **_scope(call),
        )


def switch_off_unless_active(
    conn: sqlite3.Connection, caller: Caller, *, project: str, feature: str, environment: str
) -> None:
    """Real Unleash's optionallyDisableFeature: no enabled strategy left means off."""
    active = conn.execute(
        "SELECT 1 FROM strategies WHERE feature = ? AND environment = ? AND disabled = 0",
        (feature, environment),
    ).fetchone()
    enabled = conn.execute(
        "SELECT 1 FROM feature_environments WHERE feature = ? AND environment = ? AND enabled = 1",
        (feature, environment),
    ).fetchone()
    if active is None and enabled is not None:
        conn.execute(
            "UPDATE feature_environments SET enabled = 0 WHERE feature = ? AND environment = ?",
            (feature, environment),
        )
        scope = {"project": project, "feature": feature, "environment": environment}
        record(conn, caller, "feature-environment-disabled", **scope)
