"""Users and roles: user search, the user list, role and group listings."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from flagtui.contract import MIN_USER_QUERY
from flagtui.sandbox import shapes, shapes_admin
from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.inputs import Call

USER_COLUMNS = (
    "id, name, email, username, image_url, root_role, created_at, seen_at, login_attempts,"
    " email_sent, account_type"
)


def user_record(row: sqlite3.Row) -> shapes_admin.User:
    return {
        "id": row["id"],
        "isAPI": False,
        "name": row["name"],
        "email": row["email"],
        "username": row["username"],
        "imageUrl": row["image_url"],
        "inviteLink": "",
        "loginAttempts": row["login_attempts"],
        "emailSent": bool(row["email_sent"]),
        "rootRole": row["root_role"],
        "seenAt": row["seen_at"],
        "createdAt": row["created_at"],
        "accountType": row["account_type"],
        "permissions": [],
        "scimId": None,
    }


def role_record(row: sqlite3.Row) -> shapes_admin.Role:
    return {
        "id": row["id"],
        "name": row["name"],
        "type": row["type"],
        "description": row["description"],
        "project": row["project"],
    }


def root_roles(conn: sqlite3.Connection) -> list[shapes_admin.Role]:
    rows = conn.execute(
        "SELECT id, name, type, description, project FROM roles"
        " WHERE type IN ('root', 'root-custom') ORDER BY id"
    ).fetchall()
    return [role_record(r) for r in rows]


def briefs(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, shapes.UserBrief]:
    """`{id, name, imageUrl}` of each user, as embedded in features (createdBy, collaborators)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = conn.execute(
        f"SELECT id, COALESCE(name, username, email) AS name, image_url FROM users"
        f" WHERE id IN ({','.join('?' * len(wanted))})",
        wanted,
    ).fetchall()
    return {r["id"]: {"id": r["id"], "name": r["name"], "imageUrl": r["image_url"]} for r in rows}


def search_users(call: Call) -> shapes_admin.Users:
    """Case-insensitive substring match on name, e-mail and username; q needs 2 characters."""
    q = call.query.get("q", "")
    if len(q) < MIN_USER_QUERY:
        raise bad_request(f'"q" must be at least {MIN_USER_QUERY} characters long')
    needle = q.casefold()
    with call.db.read() as conn:
        rows = conn.execute(f"SELECT {USER_COLUMNS} FROM users ORDER BY id").fetchall()
        roles = root_roles(conn)
    users = [
        user_record(r)
        for r in rows
        if any(needle in (r[k] or "").casefold() for k in ("name", "email", "username"))
    ]
    return {"users": users, "rootRoles": roles}


def list_users(call: Call) -> shapes_admin.Users:
    with call.db.read() as conn:
        rows = conn.execute(f"SELECT {USER_COLUMNS} FROM users ORDER BY id").fetchall()
        return {"users": [user_record(r) for r in rows], "rootRoles": root_roles(conn)}


def list_roles(call: Call) -> shapes_admin.Roles:
    with call.db.read() as conn:
        rows = conn.execute(
            "SELECT id, name, type, description, project FROM roles ORDER BY id"
        ).fetchall()
    return {"version": 1, "roles": [role_record(r) for r in rows]}


def list_groups(call: Call) -> shapes_admin.Groups:
    with call.db.read() as conn:
        groups = conn.execute(
            "SELECT id, name, description, root_role, created_at FROM groups_ ORDER BY id"
        ).fetchall()
        members = conn.execute(
            "SELECT g.group_id, u.id, u.name, u.email FROM group_users g"
            " JOIN users u ON u.id = g.user_id ORDER BY g.group_id, u.id"
        ).fetchall()
    by_group: dict[int, list[shapes_admin.GroupMember]] = {}
    for m in members:
        user: shapes_admin.GroupUser = {"id": m["id"], "name": m["name"], "email": m["email"]}
        by_group.setdefault(m["group_id"], []).append({"user": user})
    return {
        "groups": [
            {
                "id": g["id"],
                "name": g["name"],
                "description": g["description"],
                "users": by_group.get(g["id"], []),
                "userCount": len(by_group.get(g["id"], [])),
                "rootRole": g["root_role"],
                "createdAt": g["created_at"],
            }
            for g in groups
        ]
    }
