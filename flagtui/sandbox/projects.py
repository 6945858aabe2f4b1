"""Projects and their environments.

Removing an environment from a project deletes that environment's settings (enabled,
strategies, variants) for the project's features and unlinks it. The contract lists only
200/400/401/403 for this endpoint, so an unknown project, an unknown environment or one
that is not linked to the project is a 400 ValidationError (real Unleash answers 200 for an
unknown environment). Removing the last environment is allowed, as in real Unleash.

Linking an environment (POST /api/admin/projects/:p/environments `{environment}`, outside the
contract) answers as real Unleash does: 200 with no body and `project-environment-added`; every
flag of the project gets the environment switched off, with no strategies (a removal's settings
are not restored); an unknown project is a 404, an unknown environment a 400, one already
linked a 409 NameExistsError.
"""

from __future__ import annotations

import json

from flagtui.sandbox import shapes_admin
from flagtui.sandbox.errors import ApiError, bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, require_object


def list_projects(call: Call) -> shapes_admin.Projects:
    with call.db.read() as conn:
        rows = conn.execute(
            "SELECT p.id, p.name, p.description, p.created_at, p.health, p.mode, p.favorite,"
            " (SELECT count(*) FROM features f WHERE f.project = p.id AND f.archived_at IS NULL)"
            " AS feature_count,"
            " (SELECT count(*) FROM (SELECT user_id FROM project_user_roles WHERE project = p.id"
            "  UNION SELECT gu.user_id FROM project_group_roles pg"
            "  JOIN group_users gu ON gu.group_id = pg.group_id WHERE pg.project = p.id))"
            " AS member_count"
            " FROM projects p ORDER BY p.name"
        ).fetchall()
    return {
        "version": 1,
        "projects": [
            {
                "id": r["id"],
                "name": r["name"],
                "description": r["description"],
                "featureCount": r["feature_count"],
                "memberCount": r["member_count"],
                "createdAt": r["created_at"],
                "health": r["health"],
                "mode": r["mode"],
                "favorite": bool(r["favorite"]),
            }
            for r in rows
        ],
    }


def project_environments(call: Call) -> shapes_admin.ProjectEnvironments:
    project = call.path["project"]
    with call.db.read() as conn:
        if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
            raise not_found(f"Could not find project {project}")
        rows = conn.execute(
            "SELECT e.name, e.type, e.enabled, e.sort_order, e.protected,"
            " pe.project IS NOT NULL AS visible, pe.default_strategy FROM environments e"
            " LEFT JOIN project_environments pe ON pe.environment = e.name AND pe.project = ?"
            " ORDER BY e.sort_order, e.name",
            (project,),
        ).fetchall()
    environments: list[shapes_admin.ProjectEnvironment] = []
    for r in rows:
        environment: shapes_admin.ProjectEnvironment = {
            "name": r["name"],
            "type": r["type"],
            "enabled": bool(r["enabled"]),
            "sortOrder": r["sort_order"],
            "protected": bool(r["protected"]),
            "visible": bool(r["visible"]),
        }
        if r["default_strategy"]:  # only once set, as on real Unleash
            environment["defaultStrategy"] = json.loads(r["default_strategy"])
        environments.append(environment)
    return {"version": 1, "environments": environments}


def remove_environment(call: Call) -> None:
    project, environment = call.path["project"], call.path["environment"]
    with call.db.write() as conn:
        if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
            raise bad_request(f"Project {project} does not exist")
        linked = conn.execute(
            "SELECT 1 FROM project_environments WHERE project = ? AND environment = ?",
            (project, environment),
        ).fetchone()
        if linked is None:
            raise bad_request(f"Environment {environment} is not enabled for project {project}")
        in_project = "(SELECT name FROM features WHERE project = ?)"
        removed = conn.execute(
            f"DELETE FROM feature_environments WHERE environment = ? AND feature IN {in_project}",
            (environment, project),
        ).rowcount
        strategies = conn.execute(
            f"DELETE FROM strategies WHERE environment = ? AND feature IN {in_project}",
            (environment, project),
        ).rowcount
        conn.execute(
            "DELETE FROM project_environments WHERE project = ? AND environment = ?",
            (project, environment),
        )
        record(
            conn,
            call.caller,
            "project-environment-removed",
            project=project,
            environment=environment,
            data={"project": project, "environment": environment},
            pre_data={
                "project": project,
                "environment": environment,
                "featureSettingsRemoved": removed,
                "strategiesRemoved": strategies,
            },
        )


def add_environment(call: Call) -> None:
    project = call.path["project"]
    environment = require_object(call.body).get("environment")
    if environment is None:
        raise bad_request('"environment" is required: the name of the environment to link')
    with call.db.write() as conn:
        if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
            raise not_found("No project found")
        known = conn.execute(
            "SELECT 1 FROM environments WHERE name = ?", (str(environment),)
        ).fetchone()
        if not isinstance(environment, str) or known is None:
            raise bad_request(f"Environment {environment} does not exist")
        linked = conn.execute(
            "INSERT INTO project_environments (project, environment) VALUES (?, ?)"
            " ON CONFLICT DO NOTHING",
            (project, environment),
        ).rowcount
        if not linked:
            raise ApiError(409, f"{project} already has the environment {environment} enabled")
        conn.execute(
            "INSERT INTO feature_environments (feature, environment, enabled, last_seen_at,"
            " variants) SELECT name, ?, 0, NULL, '[]' FROM features WHERE project = ?"
            " ON CONFLICT DO NOTHING",
            (environment, project),
        )
        record(
            conn, call.caller, "project-environment-added", project=project, environment=environment
        )
