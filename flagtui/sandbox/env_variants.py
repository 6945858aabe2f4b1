"""A flag's variants in one environment: GET, PUT (replace) and PATCH (RFC 6902) of
`/api/admin/projects/:p/features/:f/environments/:env/variants`, answering
`{version: 1, variants}`.

Real Unleash (6.10.1, 7.5.1 and 8.2.0 alike) deprecated environment variants for strategy
variants: a write is refused with 403 InvalidOperationError ("Environment variants deprecated
for feature: …") unless the flag already has environment variants in some environment. The
sandbox does the same. Variants are checked and their weights fixed as strategy variants are
(`strategy_rules.variants`; weightType defaults to variable, stickiness to default), and
every write records feature-environment-variants-updated (data `{variants}`, preData
`{variants}` before), even when nothing changed, as real Unleash does. An unknown flag is a
404; an environment the project does not have, a 404 here (real Unleash stores nothing).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import jsonpatch
import jsonpointer

from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox import strategy_rules as rules
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import ApiError, bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.features import feature_row
from flagtui.sandbox.inputs import Call


def _current(conn: sqlite3.Connection, call: Call) -> list[dict[str, Any]]:
    project, name, env = call.path["project"], call.path["feature"], call.path["environment"]
    feature_row(conn, project, name)
    linked = conn.execute(
        "SELECT 1 FROM project_environments WHERE project = ? AND environment = ?", (project, env)
    ).fetchone()
    if linked is None:
        raise not_found(f"Feature {name} does not have environment {env}")
    row = conn.execute(
        "SELECT variants FROM feature_environments WHERE feature = ? AND environment = ?",
        (name, env),
    ).fetchone()
    return json.loads(row["variants"]) if row else []


def get_variants(call: Call) -> shapes.EnvironmentVariants:
    with call.db.read() as conn:
        return {"version": 1, "variants": _current(conn, call)}  # type: ignore[typeddict-item]


def put_variants(call: Call) -> shapes.EnvironmentVariants:
    with call.db.write() as conn:
        before = _current(conn, call)
        return _save(conn, call, before, call.body)


def patch_variants(call: Call) -> shapes.EnvironmentVariants:
    if not isinstance(call.body, list):
        raise bad_request("The request body must be an array of JSON patch operations")
    with call.db.write() as conn:
        before = _current(conn, call)
        try:
            after = jsonpatch.JsonPatch(call.body).apply(before)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as error:
            raise bad_request(f"Could not apply provided patch: {error}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
            raise bad_request(f"Could not apply provided patch: {error}") from None
        return _save(conn, call, before, after)


def _save(
    conn: sqlite3.Connection, call: Call, before: list[dict[str, Any]], wanted: Any
) -> shapes.EnvironmentVariants:
    name, env = call.path["feature"], call.path["environment"]
    has_any = conn.execute(
        "SELECT 1 FROM feature_environments WHERE feature = ? AND variants != '[]'", (name,)
    ).fetchone()
    if has_any is None:
        raise ApiError(
            403,
            f"Environment variants deprecated for feature: {name}. Use strategy variants instead.",
            "InvalidOperationError",
        )
    if not isinstance(wanted, list):
        raise bad_request("The variants must be an array")
    variants = rules.variants(wanted, environment=True)
    conn.execute(
        "INSERT INTO feature_environments (feature, environment, enabled, last_seen_at,"
        " variants) VALUES (?, ?, 0, NULL, ?) ON CONFLICT (feature, environment)"
        " DO UPDATE SET variants = excluded.variants",
        (name, env, dumps(variants)),
    )
    record(
        conn,
        call.caller,
        "feature-environment-variants-updated",
        project=call.path["project"],
        feature=name,
        environment=env,
        data={"variants": variants},
        pre_data={"variants": before},
    )
    return {"version": 1, "variants": variants}  # type: ignore[typeddict-item]
