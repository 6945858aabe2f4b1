"""API tokens: an admin token (`*:*.<hex>`, every permission) and a read-only viewer token.

Tokens are random per database, created with it and stored in it. The header carries the
raw token; a `Bearer ` prefix is accepted too, as real Unleash does.
"""

from __future__ import annotations

import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from flagtui.sandbox.db import connect
from flagtui.sandbox.errors import ApiError


class Tokens(NamedTuple):
    admin: str
    viewer: str


@dataclass(frozen=True)
class Caller:
    user_id: int
    username: str
    can_write: bool

    def require_write(self) -> None:
        if not self.can_write:
            raise ApiError(403, "You don't have the required permissions to perform this action")

    def require_admin(self) -> None:
        """The ADMIN permission (only the admin token holds it)."""
        if not self.can_write:
            raise ApiError(403, "You need the ADMIN permission to perform this action")


def new_tokens() -> Tokens:
    return Tokens(admin=f"*:*.{secrets.token_hex(32)}", viewer=f"viewer:{secrets.token_hex(24)}")


def read_tokens(db_path: Path | str) -> Tokens:
    conn = connect(db_path)
    try:
        kinds = dict(conn.execute("SELECT kind, secret FROM tokens").fetchall())
    finally:
        conn.close()
    return Tokens(admin=kinds["admin"], viewer=kinds["viewer"])


def load_callers(conn: sqlite3.Connection) -> dict[str, Caller]:
    rows = conn.execute(
        "SELECT t.secret, t.kind, u.id, COALESCE(u.username, u.email) AS username"
        " FROM tokens t JOIN users u ON u.id = t.user_id"
    ).fetchall()
    return {r["secret"]: Caller(r["id"], r["username"], r["kind"] == "admin") for r in rows}


def authenticate(header: str | None, callers: dict[str, Caller]) -> Caller:
    token = (header or "").strip()
    if token[:7].lower() == "bearer ":
        token = token[7:].strip()
    caller = callers.get(token) if token else None
    if caller is None:
        raise ApiError(401, "You must log in to use Unleash. Your request had no valid API token.")
    return caller
