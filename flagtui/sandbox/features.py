"""Feature flags: the full record (GET), the project's feature list and the feature search.

The writes (PATCH, lifecycle uncomplete) are in `feature_writes`; they build the record and
its search text with the functions here.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from flagtui.contract import PAGE_DEFAULT, PAGE_MAX
from flagtui.sandbox import shapes
from flagtui.sandbox.errors import bad_request, not_found
from flagtui.sandbox.inputs import Call, page, query_filter
from flagtui.sandbox.lifecycle_filter import lifecycle_where
from flagtui.sandbox.users import briefs

FEATURE_COLUMNS = (
    "name, project, type, description, stale, impression_data, favorite,"
    " created_at, created_by, archived_at, last_seen_at, stage, stage_entered_at, tags,"
    " parent, dependency, collaborators"
)


def search_text(name: str, description: str | None, tags: Sequence[Mapping[str, Any]]) -> str:
    """What the feature search's `query` matches: name, description and tags, casefolded."""
    tag_text = " ".join(f"{t['type']}:{t['value']}" for t in tags)
    return f"{name}\n{description or ''}\n{tag_text}".casefold()


def feature_row(conn: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    row = conn.execute(
        f"SELECT {FEATURE_COLUMNS} FROM features WHERE name = ? AND project = ?", (name, project)
    ).fetchone()
    if row is None:
        raise not_found(f"Could not find feature flag {name} in project {project}")
    return row


def _lifecycle(conn: sqlite3.Connection, row: sqlite3.Row) -> shapes.Lifecycle:
    """A completed flag's lifecycle says how it was completed (kept or discarded)."""
    stage: shapes.Lifecycle = {"stage": row["stage"], "enteredStageAt": row["stage_entered_at"]}
    if row["stage"] == "completed":
        done = conn.execute(
            "SELECT status FROM lifecycle_stages WHERE feature = ? AND stage = 'completed'"
            " ORDER BY seq DESC LIMIT 1",
            (row["name"],),
        ).fetchone()
        if done is not None and done["status"]:
            stage["status"] = done["status"]
    return stage


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
        "lifecycle": _lifecycle(conn, row),
        "dependencies": [json.loads(row["dependency"])] if row["dependency"] else [],
        "collaborators": {"users": [people[i] for i in collaborator_ids if i in people]},
    }


def _unknown_user(user_id: int) -> shapes.UserBrief:
    return {"id": user_id, "name": "unknown", "imageUrl": ""}


def get_feature(call: Call) -> shapes.Feature:
    """Live features only: an archived one is a 404, as on real Unleash (search finds it)."""
    name = call.path["feature"]
    with call.db.read() as conn:
        row = feature_row(conn, call.path["project"], name)
        if row["archived_at"] is not None:
            raise not_found(f"Could not find feature flag with name {name}")
        return feature_record(conn, row)


def feature_tags(call: Call) -> shapes.FeatureTags:
    """Real Unleash's tag read, which its feature payload leaves out (6.10 to 8.2)."""
    name = call.path["feature"]
    with call.db.read() as conn:
        row = conn.execute("SELECT tags FROM features WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise not_found(f"Could not find feature with name {name}")
    return {"version": 1, "tags": json.loads(row["tags"])}


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
