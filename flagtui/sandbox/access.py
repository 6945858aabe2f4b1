"""Project access: who holds which project role, and granting roles to users and groups.

POST grants every listed role to every listed user and group (200, no body). Each id must
exist (400 ValidationError otherwise) and each role must be a project role (type project or
custom): a root role is a 400. Unknown project: 404. project-access-added is recorded with
the grants that were new; a request that grants nothing new records nothing.
"""

from __future__ import annotations

import sqlite3

from flagtui.sandbox import shapes_admin
from flagtui.sandbox.errors import bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, int_list, require_object
from flagtui.sandbox.users import role_record


def _require_project(conn: sqlite3.Connection, project: str) -> None:
    if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
        raise not_found(f"Could not find project {project}")


def get_access(call: Call) -> shapes_admin.Access:
    project = call.path["project"]
    with call.db.read() as conn:
        _require_project(conn, project)
        roles = conn.execute(
            "SELECT id, name, type, description, project FROM roles"
            " WHERE type IN ('project', 'custom') AND (project IS NULL OR project = ?)"
            " ORDER BY id",
            (project,),
        ).fetchall()
        user_rows = conn.execute(
            "SELECT u.id, u.name, u.email, r.role_id FROM project_user_roles r"
            " JOIN users u ON u.id = r.user_id WHERE r.project = ? ORDER BY u.id, r.role_id",
            (project,),
        ).fetchall()
        group_rows = conn.execute(
            "SELECT g.id, g.name, r.role_id FROM project_group_roles r"
            " JOIN groups_ g ON g.id = r.group_id WHERE r.project = ? ORDER BY g.id, r.role_id",
            (project,),
        ).fetchall()
    users: dict[int, shapes_admin.AccessUser] = {}
    for u in user_rows:
        entry = users.setdefault(
            u["id"], {"id": u["id"], "name": u["name"], "email": u["email"], "roles": []}
        )
        entry["roles"].append(u["role_id"])
    groups: dict[int, shapes_admin.AccessGroup] = {}
    for g in group_rows:
        group = groups.setdefault(g["id"], {"id": g["id"], "name": g["name"], "roles": []})
        group["roles"].append(g["role_id"])
    return {
        "roles": [role_record(r) for r in roles],
        "users": list(users.values()),
        "groups": list(groups.values()),
    }


def _check_ids(conn: sqlite3.Connection, table: str, ids: list[int], what: str) -> None:
    if not ids:
        return
    found = {
        r[0]
        for r in conn.execute(
            f"SELECT id FROM {table} WHERE id IN ({','.join('?' * len(ids))})", ids
        )
    }
    missing = [i for i in ids if i not in found]
    if missing:
        raise bad_request(f"Unknown {what} id(s): {', '.join(map(str, missing))}")


def add_access(call: Call) -> None:
    body = require_object(call.body)
    roles, groups, users = (int_list(body, k) for k in ("roles", "groups", "users"))
    project = call.path["project"]
    with call.db.write() as conn:
        _require_project(conn, project)
        _check_ids(conn, "roles", roles, "role")
        _check_ids(conn, "groups_", groups, "group")
        _check_ids(conn, "users", users, "user")
        if roles:
            root = conn.execute(
                f"SELECT id FROM roles WHERE id IN ({','.join('?' * len(roles))})"
                " AND type NOT IN ('project', 'custom')",
                roles,
            ).fetchall()
            if root:
                raise bad_request(f"Role {root[0][0]} is a root role, not a project role")
        granted = []
        for role in roles:
            new_users = [
                u
                for u in users
                if conn.execute(
                    "INSERT OR IGNORE INTO project_user_roles VALUES (?, ?, ?)", (project, u, role)
                ).rowcount
            ]
            new_groups = [
                g
                for g in groups
                if conn.execute(
                    "INSERT OR IGNORE INTO project_group_roles VALUES (?, ?, ?)",
                    (project, g, role),
                ).rowcount
            ]
            if new_users or new_groups:
                granted.append({"roleId": role, "userIds": new_users, "groupIds": new_groups})
        if granted:
            record(
                conn, call.caller, "project-access-added", project=project, data={"roles": granted}
            )
