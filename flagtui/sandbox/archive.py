"""Archiving and reviving features with the routes real Unleash's UI uses (the contract has no
archive operations; see the package docstring for the choices).

Archive: DELETE /api/admin/projects/:p/features/:f, 202 with no body, as on real Unleash 8.2:
the feature enters the `archived` lifecycle stage with its environments as they were, and
records feature-archived (no data). An archived feature is archived again, one more event
(real Unleash does the same); an unknown one is a 404.

Revive: POST /api/admin/projects/:p/revive `{features: [names]}`, like real Unleash 8.2: 200
with no body; names that are unknown or not archived are skipped; a revived feature leaves the
archive with its lifecycle restarted at `initial` and every environment disabled, and records
feature-revived.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.errors import ApiError, bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.features import feature_row
from flagtui.sandbox.inputs import Call, require_object


def names_in(body: Any) -> list[str]:
    features = require_object(body).get("features")
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise bad_request('"features" must be an array of feature names')
    return list(dict.fromkeys(features))


def archive_feature(call: Call) -> None:
    project, name = call.path["project"], call.path["feature"]
    with call.db.write() as conn:
        feature_row(conn, project, name)  # 404 for an unknown feature
        archive_in(conn, call, project, name)


def archive_in(conn: sqlite3.Connection, call: Call, project: str, name: str) -> None:
    """One known flag archived, in the caller's transaction: stage, mark, event."""
    now = now_iso()
    conn.execute(
        "INSERT INTO lifecycle_stages (feature, stage, entered_at) VALUES (?, 'archived', ?)",
        (name, now),
    )
    conn.execute(
        "UPDATE features SET archived_at = ?, stage = 'archived', stage_entered_at = ?"
        " WHERE name = ?",
        (now, now, name),
    )
    record(conn, call.caller, "feature-archived", project=project, feature=name)


def revive(call: Call) -> None:
    project = call.path["project"]
    names = names_in(call.body)
    with call.db.write() as conn:
        if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
            raise not_found(f"Active project with id {project} does not exist")
        rows = rows_in_project(conn, project, names)
        now = now_iso()
        for row in rows:
            if row["archived_at"] is None:
                continue
            name = row["name"]
            conn.execute("UPDATE features SET archived_at = NULL WHERE name = ?", (name,))
            conn.execute("DELETE FROM lifecycle_stages WHERE feature = ?", (name,))
            conn.execute(
                "INSERT INTO lifecycle_stages (feature, stage, entered_at)"
                " VALUES (?, 'initial', ?)",
                (name, now),
            )
            conn.execute(
                "UPDATE features SET stage = 'initial', stage_entered_at = ? WHERE name = ?",
                (now, name),
            )
            conn.execute("UPDATE feature_environments SET enabled = 0 WHERE feature = ?", (name,))
            record(conn, call.caller, "feature-revived", project=project, feature=name)


def rows_in_project(conn: sqlite3.Connection, project: str, names: list[str]) -> list[sqlite3.Row]:
    """The named features that exist (unknown names left out), as real Unleash's project batch
    routes check them: a name of another project's feature refuses the whole request (403)."""
    marks = ",".join("?" * len(names))
    rows = conn.execute(
        f"SELECT name, project, archived_at, stale FROM features WHERE name IN ({marks})", names
    ).fetchall()
    elsewhere = sorted({r["project"] for r in rows if r["project"] != project})
    if elsewhere:
        raise ApiError(
            403,
            f"The features exist, but their projects ({', '.join(elsewhere)}) do not"
            f" match the project in the request URL ({project}).",
        )
    return rows
