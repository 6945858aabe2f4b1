"""Users and roles: user search, the user list, role and group listings; creating a user and
changing one (as real Unleash 8.2 does: `flagtui.api.users` says what it does)."""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
from collections.abc import Iterable
from typing import Any

from flagtui.contract import MIN_USER_QUERY
from flagtui.sandbox import events, shapes, shapes_admin
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.errors import ApiError, bad_request
from flagtui.sandbox.inputs import Call, optional_str, require_object

EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")

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


INVALID = "Request validation failed: your request body or params contain invalid data"


def _invalid(message: str) -> ApiError:
    return ApiError(400, f"{INVALID}: {message}", name="BadDataError")


def _user_event_data(row: sqlite3.Row) -> dict[str, Any]:
    data = {"id": row["id"], "name": row["name"], "email": row["email"]}
    if row["username"]:
        data["username"] = row["username"]
    return {**data, "rootRole": row["root_role"]}


def create_user(call: Call) -> shapes_admin.User:
    """Real Unleash's POST /api/admin/user-admin: 201 with the user and an invite link."""
    body = require_object(call.body)
    email, username, name = (optional_str(body, k) for k in ("email", "username", "name"))
    role = body.get("rootRole")
    if email is not None and not EMAIL.fullmatch(email):
        raise ApiError(
            400,
            f"{INVALID}. Refer to the `details` list for more information."
            f' "value" must be a valid email. You provided "{email}".',
            name="BadDataError",
        )
    if not email and not username:
        raise _invalid("You must specify username or email")
    with call.db.write() as conn:
        roles = {r["id"]: r["name"] for r in conn.execute("SELECT id, name FROM roles")}
        role_id = (
            role
            if isinstance(role, int)
            else next((i for i, n in roles.items() if n == role), None)
        )
        if role_id not in roles or role_id is None:
            raise _invalid(f"Could not find rootRole={role}")
        taken = conn.execute(
            "SELECT 1 FROM users WHERE (email = ? AND ? IS NOT NULL)"
            " OR (username = ? AND ? IS NOT NULL)",
            (email, email, username, username),
        ).fetchone()
        if taken:
            raise _invalid("User already exists")
        digest = hashlib.sha256((email or username or "").encode()).hexdigest()
        cursor = conn.execute(
            "INSERT INTO users (name, email, username, image_url, root_role, created_at,"
            " seen_at, login_attempts, email_sent, account_type)"
            " VALUES (?,?,?,?,?,?,NULL,0,0,'User')",
            (name, email or "", username,
             f"https://gravatar.com/avatar/{digest}?s=42&d=retro&r=g", role_id, now_iso()),
        )  # fmt: skip
        row = conn.execute(
            f"SELECT {USER_COLUMNS} FROM users WHERE id = ?", (cursor.lastrowid,)
        ).fetchone()
        events.record(conn, call.caller, "user-created", data=_user_event_data(row))
    created = user_record(row)
    invite = secrets.token_urlsafe(24)
    base = f"http://{call.headers.get('host', 'localhost')}"
    return {**created, "inviteLink": f"{base}/new-user?token={invite}"}


def update_user(call: Call) -> shapes_admin.User:
    """PUT /api/admin/user-admin/:id: the fields given changed (here: rootRole, name, email)."""
    body = require_object(call.body)
    user_id = call.path["id"]
    with call.db.write() as conn:
        before = conn.execute(
            f"SELECT {USER_COLUMNS} FROM users WHERE id = ?", (user_id,)
        ).fetchone()
        if before is None or not user_id.isdigit():
            raise ApiError(404, "No user found")
        role = body.get("rootRole", before["root_role"])
        if not conn.execute("SELECT 1 FROM roles WHERE id = ?", (role,)).fetchone():
            raise _invalid(f"Could not find rootRole={role}")
        name = optional_str(body, "name") or before["name"]
        email = optional_str(body, "email") or before["email"]
        conn.execute(
            "UPDATE users SET root_role = ?, name = ?, email = ? WHERE id = ?",
            (role, name, email, before["id"]),
        )
        after = conn.execute(
            f"SELECT {USER_COLUMNS} FROM users WHERE id = ?", (user_id,)
        ).fetchone()
        if dict(after) != dict(before):
            events.record(
                conn, call.caller, "user-updated",
                data={**_user_event_data(after), "username": after["username"]},
                pre_data={**_user_event_data(before), "username": before["username"]},
            )  # fmt: skip
    return user_record(after)


ROUTES: list[tuple[str, str, Any, dict[str, Any]]] = [
    ("/api/admin/user-admin", "POST", create_user,
     {"write": True, "body": True, "admin": True, "ok": 201}),
    ("/api/admin/user-admin/{id}", "PUT", update_user,
     {"write": True, "body": True, "admin": True}),
]  # fmt: skip
