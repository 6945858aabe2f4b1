"""Who an SDK on one of the sandbox's environments gives a flag: its own client API
(`/api/client/features`, with a client token of that environment) fed to the SDKs' engine
as an SDK is fed, for u-1 … u-N with one context. The independent side of the previews'
tests: what the server holds, read the way applications read it."""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections import Counter
from typing import Any

import httpx
from yggdrasil_engine.engine import UnleashEngine

USERS = 10_000


def client_token(sandbox: Any, environment: str) -> str:
    """The sandbox's client token of `environment` (production's is its own; another is made,
    served from the next request, the sandbox's own tokens left as they were)."""
    if environment == "production":
        return str(sandbox.client_token)
    token = f"*:{environment}.{secrets.token_hex(32)}"
    with sqlite3.connect(sandbox.db_path) as db:
        db.execute("INSERT INTO tokens VALUES (?, 'client', 0)", (token,))
    own = sandbox.admin_token, sandbox.client_token
    sandbox.use_database(sandbox.db_path)
    sandbox.admin_token, sandbox.client_token = own
    return token


def served(
    sandbox: Any,
    flag: str,
    context: dict[str, Any] | None = None,
    users: int = USERS,
    environment: str = "production",
) -> tuple[int, dict[str, int]]:
    """How many of `users` synthetic userIds get `flag` in `environment`, and each variant."""
    answer = httpx.get(
        f"{sandbox.url}/api/client/features",
        headers={"Authorization": client_token(sandbox, environment)},
    )
    assert answer.status_code == 200, answer.text
    engine = UnleashEngine()
    engine.take_state(json.dumps(answer.json()))
    on, variants = 0, Counter[str]()
    for i in range(1, users + 1):
        asked = {**(context or {}), "userId": f"u-{i}", "environment": environment}
        found = engine.check_variant(flag, asked).variant
        on += bool(found.feature_enabled)
        variants[found.name] += 1
    return on, dict(variants)
