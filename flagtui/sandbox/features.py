"""Feature flags: the full record, PATCH, lifecycle uncomplete and the browse reads.

PATCH applies RFC 6902 operations (add, remove, replace, copy, move: the contract's five;
`test` is refused) to the Feature record as GET returns it. Only description, type, stale,
impressionData and archived may end up different; any other change (for example /name or
/project) is a 400 ValidationError, as is a type that is not a known feature type or a
non-boolean flag. Removing /description sets it to null. Archiving enters the `archived`
lifecycle stage; reviving drops it again (as real Unleash does).

Events: any change records feature-metadata-updated (data and preData: the feature's
metadata), plus feature-stale-on/-off when stale changed and feature-archived/-revived when
archived changed. A PATCH that changes nothing records nothing.

Uncomplete: a completed feature drops its completed stage and is back in the stage it was in
before; on a feature that is not completed it answers 200 and changes nothing (real Unleash).
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, cast

import jsonpatch
import jsonpointer

from flagtui.contract import (
    PAGE_DEFAULT,
    PAGE_MAX,
    PATCH_OPS,
    PATCH_OPS_WITH_FROM,
    PATCH_OPS_WITH_VALUE,
)
from flagtui.sandbox import shapes
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.errors import bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, page, query_filter
from flagtui.sandbox.lifecycle_filter import lifecycle_where
from flagtui.sandbox.users import briefs

PATCHABLE = ("description", "type", "stale", "impressionData", "archived")
FEATURE_COLUMNS = (
    "name, project, type, description, stale, potentially_stale, impression_data, favorite,"
    " created_at, created_by, archived_at, last_seen_at, stage, stage_entered_at, tags,"
    " parent, dependency, collaborators"
)


def search_text(name: str, description: str | None, tags: Sequence[Mapping[str, Any]]) -> str:
    """What the feature search's `query` matches: name, description and tags, casefolded."""
    tag_text = " ".join(f"{t['type']}:{t['value']}" for t in tags)
    return f"{name}\n{description or ''}\n{tag_text}".casefold()


def _row(conn: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    row = conn.execute(
        f"SELECT {FEATURE_COLUMNS} FROM features WHERE name = ? AND project = ?", (name, project)
    ).fetchone()
    if row is None:
        raise not_found(f"Could not find feature flag {name} in project {project}")
    return row


def _strategy(row: sqlite3.Row) -> shapes.Strategy:
    return {
        "id": row["id"],
        "name": row["name"],
        "title": row["title"],
        "disabled": bool(row["disabled"]),
        "featureName": row["feature"],
        "sortOrder": row["sort_order"],
        "segments": json.loads(row["segments"]),
        "constraints": json.loads(row["constraints"]),
        "variants": json.loads(row["variants"]),
        "parameters": json.loads(row["parameters"]),
    }


def _project_environments(conn: sqlite3.Connection) -> dict[str, list[sqlite3.Row]]:
    rows = conn.execute(
        "SELECT pe.project, e.name, e.type, e.sort_order FROM project_environments pe"
        " JOIN environments e ON e.name = pe.environment ORDER BY e.sort_order, e.name"
    ).fetchall()
    by_project: dict[str, list[sqlite3.Row]] = {}
    for r in rows:
        by_project.setdefault(r["project"], []).append(r)
    return by_project


def metadata(row: sqlite3.Row) -> dict[str, Any]:
    """The short feature row real Unleash puts in metadata events."""
    return {
        "name": row["name"],
        "description": row["description"],
        "type": row["type"],
        "project": row["project"],
        "stale": bool(row["stale"]),
        "impressionData": bool(row["impression_data"]),
        "archived": row["archived_at"] is not None,
        "createdAt": row["created_at"],
    }


def feature_record(conn: sqlite3.Connection, row: sqlite3.Row) -> shapes.Feature:
    name = row["name"]
    envs = _project_environments(conn).get(row["project"], [])
    settings = {
        r["environment"]: r
        for r in conn.execute(
            "SELECT environment, enabled, last_seen_at, variants FROM feature_environments"
            " WHERE feature = ?",
            (name,),
        )
    }
    strategies: dict[str, list[shapes.Strategy]] = {}
    for s in conn.execute(
        "SELECT * FROM strategies WHERE feature = ? ORDER BY environment, sort_order, id", (name,)
    ):
        strategies.setdefault(s["environment"], []).append(_strategy(s))
    environments: list[shapes.FeatureEnvironment] = []
    for env in envs:
        setting = settings.get(env["name"])
        env_strategies = strategies.get(env["name"], [])
        variants = json.loads(setting["variants"]) if setting else []
        environments.append(
            {
                "name": env["name"],
                "featureName": name,
                "environment": env["name"],
                "type": env["type"],
                "enabled": bool(setting and setting["enabled"]),
                "sortOrder": env["sort_order"],
                "variantCount": len(variants),
                "strategies": env_strategies,
                "variants": variants,
                "lastSeenAt": setting["last_seen_at"] if setting else None,
                "hasStrategies": bool(env_strategies),
                "hasEnabledStrategies": any(not s["disabled"] for s in env_strategies),
            }
        )
    collaborator_ids = json.loads(row["collaborators"])
    people = briefs(conn, [row["created_by"], *collaborator_ids])
    children = [
        r[0]
        for r in conn.execute("SELECT name FROM features WHERE parent = ? ORDER BY name", (name,))
    ]
    return {
        "name": name,
        "type": row["type"],
        "description": row["description"],
        "archived": row["archived_at"] is not None,
        "project": row["project"],
        "enabled": any(e["enabled"] for e in environments),
        "stale": bool(row["stale"]),
        "potentiallyStale": bool(row["potentially_stale"]),
        "favorite": bool(row["favorite"]),
        "impressionData": bool(row["impression_data"]),
        "createdAt": row["created_at"],
        "createdBy": people.get(row["created_by"], _unknown_user(row["created_by"])),
        "archivedAt": row["archived_at"],
        "lastSeenAt": row["last_seen_at"],
        "environments": environments,
        "variants": [],
        "strategies": [],
        "tags": json.loads(row["tags"]),
        "children": children,
        "lifecycle": {"stage": row["stage"], "enteredStageAt": row["stage_entered_at"]},
        "dependencies": [json.loads(row["dependency"])] if row["dependency"] else [],
        "collaborators": {"users": [people[i] for i in collaborator_ids if i in people]},
    }


def _unknown_user(user_id: int) -> shapes.UserBrief:
    return {"id": user_id, "name": "unknown", "imageUrl": ""}


def get_feature(call: Call) -> shapes.Feature:
    """Live features only: an archived one is a 404, as on real Unleash (search finds it)."""
    name = call.path["feature"]
    with call.db.read() as conn:
        row = _row(conn, call.path["project"], name)
        if row["archived_at"] is not None:
            raise not_found(f"Could not find feature flag with name {name}")
        return feature_record(conn, row)


def _validate_operations(body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, list):
        raise bad_request("The request body must be an array of JSON patch operations")
    for op in body:
        if not isinstance(op, dict):
            raise bad_request("Each patch operation must be an object")
        if op.get("op") not in PATCH_OPS:
            raise bad_request(f'"op" must be one of {", ".join(PATCH_OPS)}')
        if not isinstance(op.get("path"), str):
            raise bad_request('Each patch operation needs a string "path"')
        if op["op"] in PATCH_OPS_WITH_FROM and not isinstance(op.get("from"), str):
            raise bad_request(f'A {op["op"]} operation needs a string "from"')
        if op["op"] in PATCH_OPS_WITH_VALUE and "value" not in op:
            raise bad_request(f'An {op["op"]} operation needs a "value"')
    return body


def _working_copy(document: Mapping[str, Any], operations: list[dict[str, Any]]) -> dict[str, Any]:
    """A copy the patch may change in place: top-level values the operations reach into (by
    path or from) are deep copies, the others are shared with the original, untouched."""
    touched: set[str] = set()
    for op in operations:
        for pointer in (op["path"], op.get("from")):
            if isinstance(pointer, str):
                touched.add(pointer[1:].split("/", 1)[0].replace("~1", "/").replace("~0", "~"))
    if "" in touched:
        return copy.deepcopy(dict(document))
    return {k: copy.deepcopy(v) if k in touched else v for k, v in document.items()}


def _apply(document: Mapping[str, Any], operations: list[dict[str, Any]]) -> dict[str, Any]:
    try:
        patched = jsonpatch.JsonPatch(operations).apply(
            _working_copy(document, operations), in_place=True
        )
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as error:
        raise bad_request(f"The patch could not be applied: {error}") from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
        raise bad_request(f"The patch could not be applied: {error}") from None
    if not isinstance(patched, dict):
        raise bad_request("The patch must leave a feature object")
    return patched


def _checked_changes(
    conn: sqlite3.Connection, before: Mapping[str, Any], after: Mapping[str, Any]
) -> dict[str, Any]:
    """The patched fields that changed, validated; a change elsewhere is a 400."""
    after = dict(after)
    if "description" not in after:
        after["description"] = None
    for key in set(before) | set(after):
        if key not in PATCHABLE and before.get(key, ...) != after.get(key, ...):
            raise bad_request(f"/{key} cannot be patched; only {', '.join(PATCHABLE)} can")
    changes = {k: after.get(k, ...) for k in PATCHABLE if after.get(k, ...) != before[k]}
    if "description" in changes and not isinstance(changes["description"], str | None):
        raise bad_request('"description" must be a string or null')
    for flag in ("stale", "impressionData", "archived"):
        if flag in changes and not isinstance(changes[flag], bool):
            raise bad_request(f'"{flag}" must be a boolean')
    if "type" in changes:
        known = (
            isinstance(changes["type"], str)
            and conn.execute(
                "SELECT 1 FROM feature_types WHERE id = ?", (changes["type"],)
            ).fetchone()
        )
        if not known:
            raise bad_request('"type" must be the id of a known feature type')
    return changes


def patch_feature(call: Call) -> shapes.Feature:
    operations = _validate_operations(call.body)
    project, name = call.path["project"], call.path["feature"]
    with call.db.write() as conn:
        row = _row(conn, project, name)
        before = feature_record(conn, row)
        changes = _checked_changes(conn, before, _apply(before, operations))
        if not changes:
            return before
        now = now_iso()
        description = changes.get("description", before["description"])
        tags = before["tags"]
        conn.execute(
            "UPDATE features SET description = ?, type = ?, stale = ?, impression_data = ?,"
            " search_text = ? WHERE name = ?",
            (
                description,
                changes.get("type", before["type"]),
                int(changes.get("stale", before["stale"])),
                int(changes.get("impressionData", before["impressionData"])),
                search_text(name, description, tags),
                name,
            ),
        )
        if "archived" in changes:
            _set_archived(conn, name, changes["archived"], now)
            after = feature_record(conn, _row(conn, project, name))
        else:  # nothing else in the record depends on the patched fields
            after = cast(shapes.Feature, {**before, **changes})  # checked fields only
        pre_data = metadata(row)
        scope = {"project": project, "feature": name}
        record(
            conn,
            call.caller,
            "feature-metadata-updated",
            data={**pre_data, **{k: v for k, v in changes.items() if k in pre_data}},
            pre_data=pre_data,
            **scope,
        )
        if "stale" in changes:
            stale = changes["stale"]
            record(
                conn,
                call.caller,
                "feature-stale-on" if stale else "feature-stale-off",
                data={"name": name, "stale": stale},
                pre_data={"name": name, "stale": not stale},
                **scope,
            )
        if "archived" in changes:
            archived = changes["archived"]
            record(
                conn,
                call.caller,
                "feature-archived" if archived else "feature-revived",
                data={"name": name, "archived": archived},
                pre_data={"name": name, "archived": not archived},
                **scope,
            )
        return after


def _set_archived(conn: sqlite3.Connection, name: str, archived: bool, now: str) -> None:
    if archived:
        conn.execute(
            "INSERT INTO lifecycle_stages (feature, stage, entered_at) VALUES (?, 'archived', ?)",
            (name, now),
        )
        conn.execute("UPDATE features SET archived_at = ? WHERE name = ?", (now, name))
    else:
        conn.execute(
            "DELETE FROM lifecycle_stages WHERE feature = ? AND stage = 'archived'", (name,)
        )
        conn.execute("UPDATE features SET archived_at = NULL WHERE name = ?", (name,))
    _sync_stage(conn, name, now)


def _sync_stage(conn: sqlite3.Connection, name: str, now: str) -> None:
    """Copy the latest lifecycle stage onto the feature (re-entering `initial` if none is left)."""
    latest = conn.execute(
        "SELECT stage, entered_at FROM lifecycle_stages WHERE feature = ? ORDER BY seq DESC"
        " LIMIT 1",
        (name,),
    ).fetchone()
    if latest is None:
        conn.execute(
            "INSERT INTO lifecycle_stages (feature, stage, entered_at) VALUES (?, 'initial', ?)",
            (name, now),
        )
        latest = {"stage": "initial", "entered_at": now}
    conn.execute(
        "UPDATE features SET stage = ?, stage_entered_at = ? WHERE name = ?",
        (latest["stage"], latest["entered_at"], name),
    )


def uncomplete(call: Call) -> None:
    project, name = call.path["project"], call.path["feature"]
    with call.db.write() as conn:
        row = _row(conn, project, name)
        if row["stage"] != "completed":
            return
        completed = conn.execute(
            "SELECT seq, entered_at, status, status_value FROM lifecycle_stages"
            " WHERE feature = ? AND stage = 'completed' ORDER BY seq DESC LIMIT 1",
            (name,),
        ).fetchone()
        conn.execute("DELETE FROM lifecycle_stages WHERE seq = ?", (completed["seq"],))
        _sync_stage(conn, name, now_iso())
        after = _row(conn, project, name)
        record(
            conn,
            call.caller,
            "feature-uncompleted",
            project=project,
            feature=name,
            data={"featureName": name, "stage": after["stage"]},
            pre_data={
                "featureName": name,
                "stage": "completed",
                "enteredStageAt": completed["entered_at"],
                "status": completed["status"],
                "statusValue": completed["status_value"],
            },
        )


# Browse reads -----------------------------------------------------------------------------

SORT_COLUMNS = {
    "name": "name",
    "type": "type",
    "project": "project",
    "createdAt": "created_at",
    "lastSeenAt": "last_seen_at",
    "stale": "stale",
    "archivedAt": "archived_at",
    "lifecycle": "CASE stage WHEN 'initial' THEN 0 WHEN 'pre-live' THEN 1 WHEN 'live' THEN 2"
    " WHEN 'completed' THEN 3 ELSE 4 END",
}
STATE_CLAUSES = {
    "active": "(archived_at IS NULL AND stale = 0)",
    "stale": "(archived_at IS NULL AND stale = 1)",
    "potentially-stale": "(archived_at IS NULL AND potentially_stale = 1)",
    "archived": "(archived_at IS NOT NULL)",
}


def search_items(
    conn: sqlite3.Connection, rows: list[sqlite3.Row]
) -> list[shapes.FeatureSearchItem]:
    """Search-item records for a page of features, with a fixed number of queries."""
    names = [r["name"] for r in rows]
    if not names:
        return []
    marks = ",".join("?" * len(names))
    envs = _project_environments(conn)
    settings: dict[tuple[str, str], sqlite3.Row] = {
        (r["feature"], r["environment"]): r
        for r in conn.execute(
            f"SELECT feature, environment, enabled, last_seen_at, variants"
            f" FROM feature_environments WHERE feature IN ({marks})",
            names,
        )
    }
    strategy_stats: dict[tuple[str, str], tuple[int, int]] = {}
    segment_ids: dict[str, set[int]] = {}
    for s in conn.execute(
        f"SELECT feature, environment, disabled, segments FROM strategies"
        f" WHERE feature IN ({marks})",
        names,
    ):
        total, enabled = strategy_stats.get((s["feature"], s["environment"]), (0, 0))
        strategy_stats[(s["feature"], s["environment"])] = (
            total + 1,
            enabled + (not s["disabled"]),
        )
        segment_ids.setdefault(s["feature"], set()).update(json.loads(s["segments"]))
    segment_names = dict(conn.execute("SELECT id, name FROM segments").fetchall())
    parents = {
        r[0] for r in conn.execute(f"SELECT parent FROM features WHERE parent IN ({marks})", names)
    }
    people = briefs(conn, [r["created_by"] for r in rows])
    items: list[shapes.FeatureSearchItem] = []
    for r in rows:
        environments: list[shapes.SearchEnvironment] = []
        for env in envs.get(r["project"], []):
            setting = settings.get((r["name"], env["name"]))
            total, enabled = strategy_stats.get((r["name"], env["name"]), (0, 0))
            environments.append(
                {
                    "name": env["name"],
                    "enabled": bool(setting and setting["enabled"]),
                    "type": env["type"],
                    "sortOrder": env["sort_order"],
                    "variantCount": len(json.loads(setting["variants"])) if setting else 0,
                    "lastSeenAt": setting["last_seen_at"] if setting else None,
                    "hasStrategies": total > 0,
                    "hasEnabledStrategies": enabled > 0,
                }
            )
        dependency_type = "child" if r["parent"] else "parent" if r["name"] in parents else None
        items.append(
            {
                "name": r["name"],
                "description": r["description"],
                "type": r["type"],
                "project": r["project"],
                "stale": bool(r["stale"]),
                "potentiallyStale": bool(r["potentially_stale"]),
                "favorite": bool(r["favorite"]),
                "impressionData": bool(r["impression_data"]),
                "createdAt": r["created_at"],
                "archivedAt": r["archived_at"],
                "lastSeenAt": r["last_seen_at"],
                "environments": environments,
                "tags": json.loads(r["tags"]),
                "lifecycle": {"stage": r["stage"], "enteredStageAt": r["stage_entered_at"]},
                "createdBy": people.get(r["created_by"], _unknown_user(r["created_by"])),
                "dependencyType": dependency_type,
                "segments": sorted(
                    segment_names[i] for i in segment_ids.get(r["name"], ()) if i in segment_names
                ),
            }
        )
    return items


def project_features(call: Call) -> shapes.ProjectFeatures:
    project = call.path["project"]
    with call.db.read() as conn:
        if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
            raise not_found(f"Could not find project {project}")
        rows = conn.execute(
            f"SELECT {FEATURE_COLUMNS} FROM features WHERE project = ? AND archived_at IS NULL"
            " ORDER BY created_at, name",
            (project,),
        ).fetchall()
        return {"version": 1, "features": search_items(conn, rows)}


def _in(column: str, call: Call, param: str, where: list[str], params: list[Any]) -> None:
    flt = query_filter(call.query, param)
    if flt is not None:
        marks = ",".join("?" * len(flt.values))
        where.append(f"{column} {'NOT IN' if flt.negated else 'IN'} ({marks})")
        params.extend(flt.values)


def search_features(call: Call) -> shapes.FeatureSearch:
    q = call.query
    where: list[str] = []
    params: list[Any] = []
    if q.get("query"):
        where.append("instr(search_text, ?) > 0")
        params.append(q["query"].casefold())
    _in("project", call, "project", where, params)
    _in("type", call, "type", where, params)
    by_lifecycle = lifecycle_where(q, where, params)
    state = query_filter(q, "state")
    if state is None:
        if not by_lifecycle:
            where.append("archived_at IS NULL")
    else:
        unknown = [v for v in state.values if v not in STATE_CLAUSES]
        if unknown:
            raise bad_request(f'"state" values must be among {", ".join(STATE_CLAUSES)}')
        either = " OR ".join(STATE_CLAUSES[v] for v in state.values)
        if state.negated:
            keep_archived = "archived" in state.values
            where.append(f"NOT ({either})" + ("" if keep_archived else " AND archived_at IS NULL"))
        else:
            where.append(f"({either})")
    order = SORT_COLUMNS.get(q.get("sortBy", ""), "created_at")
    direction = "DESC" if q.get("sortOrder", "").lower() == "desc" else "ASC"
    limit, offset = page(q, PAGE_DEFAULT, PAGE_MAX)
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    with call.db.read() as conn:
        total = conn.execute(f"SELECT count(*) FROM features{clause}", params).fetchone()[0]
        rows = conn.execute(
            f"SELECT {FEATURE_COLUMNS} FROM features{clause}"
            f" ORDER BY {order} {direction}, name {direction} LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
        return {"features": search_items(conn, rows), "total": total}
