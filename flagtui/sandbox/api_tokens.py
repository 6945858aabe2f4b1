"""API tokens, as real Unleash 8.2 serves them: list, create, delete (`flagtui.api.api_tokens`
says what real Unleash does; this follows it).

Every token the sandbox knows is in `tokens` (secret, kind, user); `api_tokens` holds what the
list shows of the admin API's tokens (the sandbox's own admin and client tokens, added to it
on upgrade, and the ones created here). A created client token reads `/api/client/features`
for its environment, and its `seenAt` is written when it does (at most once a minute, as real
Unleash's batch job writes it late too).
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any, NotRequired

from typing_extensions import TypedDict

from flagtui.sandbox import events
from flagtui.sandbox.clock import now_iso, parse_iso
from flagtui.sandbox.errors import ApiError
from flagtui.sandbox.inputs import Call, require_object
from flagtui.sandbox.shapes import Date

TYPES = re.compile(r"client|backend|frontend", re.I)
# Real Unleash's words for it: "^([Cc][Ll][Ii][Ee][Nn][Tt]|...)$"
TYPE_PATTERN = "^({})$".format(
    "|".join(
        "".join(f"[{c.upper()}{c}]" for c in word) for word in ("client", "backend", "frontend")
    )
)
INVALID = "Request validation failed: your request body or params contain invalid data"
SEEN_EVERY = timedelta(minutes=1)


class ApiToken(TypedDict):
    secret: NotRequired[str]
    tokenName: str
    type: str
    project: str
    projects: list[str]
    environment: str
    expiresAt: NotRequired[Date | None]
    createdAt: Date
    seenAt: NotRequired[Date | None]
    alias: None
    secure: bool


class ApiTokens(TypedDict):
    tokens: list[ApiToken]


def _record(row: sqlite3.Row, *, with_secret: bool = True) -> ApiToken:
    projects = json.loads(row["projects"])
    token: ApiToken = {
        "secret": row["secret"],
        "tokenName": row["token_name"],
        "type": row["type"],
        "project": projects[0] if len(projects) == 1 else "[]",
        "projects": projects,
        "environment": row["environment"],
        "expiresAt": row["expires_at"],
        "createdAt": row["created_at"],
        "alias": None,
        "seenAt": row["seen_at"],
        "secure": False,
    }
    if not with_secret:
        del token["secret"]
    return token


def list_tokens(call: Call) -> ApiTokens:
    with call.db.read() as conn:
        rows = conn.execute("SELECT * FROM api_tokens ORDER BY created_at, secret").fetchall()
    return {"tokens": [_record(r) for r in rows]}


def _invalid(message: str, path: str | None = None) -> ApiError:
    """Real Unleash's schema refusal: its sentence, the detail naming the field."""
    return ApiError(
        400,
        f"{INVALID}: {message}" if path is None else f"{INVALID}. {message}",
        name="BadDataError",
    )


def create_token(call: Call) -> ApiToken:
    body = require_object(call.body)
    name = body.get("tokenName")
    if not isinstance(name, str):
        raise _invalid("The `/body/tokenName` property is required.", "/body/tokenName")
    kind = body.get("type")
    if not isinstance(kind, str) or not TYPES.fullmatch(kind):
        raise _invalid(
            f'The `/body/type` property must match pattern "{TYPE_PATTERN}". You sent {kind!r}.',
            "/body/type",
        )
    kind = "client" if kind.lower() == "backend" else kind.lower()
    environment = body.get("environment", "development")
    projects = body.get("projects", [body.get("project", "*")])
    if (
        not isinstance(environment, str)
        or not isinstance(projects, list)
        or not all(isinstance(p, str) for p in projects)
    ):
        raise _invalid("environment and projects must be strings", "/body")
    if environment == "*" and kind == "client":
        raise _invalid("Client token cannot be scoped to all environments")
    expires_at = body.get("expiresAt")
    with call.db.write() as conn:
        known_envs = {r[0] for r in conn.execute("SELECT name FROM environments")}
        if environment != "*" and environment not in known_envs:
            raise _invalid(f"Environment={environment} does not exist")
        known = {r[0] for r in conn.execute("SELECT id FROM projects")}
        for project in projects:
            if project != "*" and project not in known:
                raise _invalid(f"Project={project} does not exist")
        scope = projects[0] if len(projects) == 1 else "[]"
        secret = f"{scope}:{environment}.{secrets.token_hex(28)}"
        conn.execute("INSERT INTO tokens VALUES (?, ?, 0)", (secret, kind))
        conn.execute(
            "INSERT INTO api_tokens VALUES (?,?,?,?,?,?,NULL,?)",
            (secret, name, kind, environment, json.dumps(projects), now_iso(), expires_at),
        )
        row = conn.execute("SELECT * FROM api_tokens WHERE secret = ?", (secret,)).fetchone()
        created = _record(row)
        data: dict[str, Any] = {k: v for k, v in created.items() if k not in ("secret", "seenAt")}
        if data.get("expiresAt") is None:
            data.pop("expiresAt", None)
        events.record(
            conn,
            call.caller,
            "api-token-created",
            project=scope,
            environment=environment,
            data=data,
        )
    call.db.tokens_changed()
    if created.get("expiresAt") is None:
        created.pop("expiresAt", None)
    created.pop("seenAt", None)
    return created


def delete_token(call: Call) -> None:
    """200 whether or not the token existed, as real Unleash answers."""
    secret = call.path["token"]
    with call.db.write() as conn:
        row = conn.execute("SELECT * FROM api_tokens WHERE secret = ?", (secret,)).fetchone()
        if row is None:
            return
        conn.execute("DELETE FROM api_tokens WHERE secret = ?", (secret,))
        conn.execute("DELETE FROM tokens WHERE secret = ?", (secret,))
        before = _record(row, with_secret=False)
        events.record(
            conn,
            call.caller,
            "api-token-deleted",
            project=before["project"],
            environment=before["environment"],
            pre_data=before,
        )
    call.db.tokens_changed()


def seen(call: Call) -> None:
    """The token used for this client read was seen now (written at most once a minute)."""
    secret = call.caller.secret
    if not secret:
        return
    with call.db.read() as conn:
        row = conn.execute("SELECT seen_at FROM api_tokens WHERE secret = ?", (secret,)).fetchone()
    now = datetime.now(UTC)
    if row is None or (row[0] and now - parse_iso(row[0]) < SEEN_EVERY):
        return
    with call.db.write() as conn:
        conn.execute("UPDATE api_tokens SET seen_at = ? WHERE secret = ?", (now_iso(), secret))


ROUTES: list[tuple[str, str, Any, dict[str, Any]]] = [
    ("/api/admin/api-tokens", "GET", list_tokens, {"admin": True}),
    ("/api/admin/api-tokens", "POST", create_token,
     {"write": True, "body": True, "admin": True, "ok": 201}),
    ("/api/admin/api-tokens/{token}", "DELETE", delete_token, {"write": True, "admin": True}),
]  # fmt: skip
