"""Another admin on a running sandbox: a second admin token, of another user, so that what it
writes is recorded under that user's name (a concurrent edit, as two people make one)."""

from __future__ import annotations

import secrets
import sqlite3
from typing import Any

OTHER_USER = 3  # a demo user other than the admin token's (user 1)


def second_admin(sandbox: Any) -> tuple[str, str]:
    """A new admin token of user 3 on `sandbox` (served from the next request), and the name
    its events carry. The sandbox's own admin token stays the one it was."""
    token = f"*:*.{secrets.token_hex(32)}"
    with sqlite3.connect(sandbox.db_path) as db:
        (name,) = db.execute(
            "SELECT COALESCE(username, email) FROM users WHERE id = ?", (OTHER_USER,)
        ).fetchone()
        db.execute("INSERT INTO tokens VALUES (?, 'admin', ?)", (token, OTHER_USER))
    own = sandbox.admin_token
    sandbox.use_database(sandbox.db_path)
    sandbox.admin_token = own
    return token, str(name)
