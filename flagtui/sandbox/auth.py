"""API tokens: an admin token (`*:*.<hex>`, every permission), a read-only viewer token and a
client token (`*:production.<hex>`, real Unleash's form: every project, one environment).

Tokens are random per database, created with it and stored in it. The header carries the
raw token; a `Bearer ` prefix is accepted too, as real Unleash does. The client token reads
only the client API (`/api/client/...`); on the admin API it is a 403, as on real Unleash. A
database made before client tokens existed has none (`Tokens.client` is None).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from flagtui.sandbox.db import Database, connect
from flagtui.sandbox.errors import ApiError

CLIENT_ENVIRONMENT = "production"
TOKEN_TYPE_ERROR = "invalid token: expected a different token type for this endpoint"


class Tokens(NamedTuple):
    admin: str
    viewer: str
    client: str | None = None


@dataclass(frozen=True)
class Caller:
    user_id: int
    username: str
    can_write: bool
    client_environment: str | None = None  # set for a client token: the environment it reads
    secret: str = field(default="", repr=False)  # a client token's, for its seenAt

    def require_write(self) -> None:
        if not self.can_write:
            raise ApiError(403, "You don't have the required permissions to perform this action")

    def require_admin(self) -> None:
        """The ADMIN permission (only the admin token holds it)."""
        if not self.can_write:
            raise ApiError(403, "You need the ADMIN permission to perform this action")


def new_tokens() -> Tokens:
    return Tokens(
        admin=f"*:*.{secrets.token_hex(32)}",
        viewer=f"viewer:{secrets.token_hex(24)}",
        client=f"*:{CLIENT_ENVIRONMENT}.{secrets.token_hex(32)}",
    )


def read_tokens(db_path: Path | str) -> Tokens:
    conn = connect(db_path)
    try:
        kinds = dict(conn.execute("SELECT kind, secret FROM tokens").fetchall())
    finally:
        conn.close()
    return Tokens(admin=kinds["admin"], viewer=kinds["viewer"], client=kinds.get("client"))


def load_callers(conn: sqlite3.Connection) -> dict[str, Caller]:
    rows = conn.execute(
        "SELECT t.secret, t.kind, u.id, COALESCE(u.username, u.email) AS username"
        " FROM tokens t JOIN users u ON u.id = t.user_id"
    ).fetchall()
    callers = {r["secret"]: Caller(r["id"], r["username"], r["kind"] == "admin") for r in rows}
    for (secret,) in conn.execute("SELECT secret FROM tokens WHERE kind = 'client'"):
        environment = secret.partition(":")[2].partition(".")[0]
        callers[secret] = Caller(0, "client", False, client_environment=environment, secret=secret)
    return callers


def reloading(db: Database, callers: dict[str, Caller]) -> Callable[[], None]:
    """What `Database.tokens_changed` runs: `callers` read again, in place (a token created
    or revoked through the admin API counts from the next request on)."""

    def reload() -> None:
        with db.read() as conn:
            fresh = load_callers(conn)
        callers.clear()
        callers.update(fresh)

    return reload


def authenticate(header: str | None, callers: dict[str, Caller]) -> Caller:
    token = (header or "").strip()
    if token[:7].lower() == "bearer ":
        token = token[7:].strip()
    caller = callers.get(token) if token else None
    if caller is None:
        raise ApiError(401, "You must log in to use Unleash. Your request had no valid API token.")
    return caller


def authenticate_admin(header: str | None, callers: dict[str, Caller]) -> Caller:
    """A caller of the admin API: a client token is refused there (403, as real Unleash)."""
    caller = authenticate(header, callers)
    if caller.client_environment is not None:
        raise ApiError(403, TOKEN_TYPE_ERROR)
    return caller
