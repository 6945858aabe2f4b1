"""Who an SDK on the sandbox's production environment gives a flag: its own client API
(`/api/client/features`, with the sandbox's production client token) fed to the SDKs' engine
as an SDK is fed, for u-1 … u-N with one context. The independent side of the previews'
tests: what the server holds, read the way applications read it."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import httpx
from yggdrasil_engine.engine import UnleashEngine

USERS = 10_000


def served(
    sandbox: Any, flag: str, context: dict[str, Any] | None = None, users: int = USERS
) -> tuple[int, dict[str, int]]:
    """How many of `users` synthetic userIds get `flag` in production, and each variant."""
    answer = httpx.get(
        f"{sandbox.url}/api/client/features", headers={"Authorization": sandbox.client_token}
    )
    assert answer.status_code == 200, answer.text
    engine = UnleashEngine()
    engine.take_state(json.dumps(answer.json()))
    on, variants = 0, Counter[str]()
    for i in range(1, users + 1):
        asked = {**(context or {}), "userId": f"u-{i}", "environment": "production"}
        found = engine.check_variant(flag, asked).variant
        on += bool(found.feature_enabled)
        variants[found.name] += 1
    return on, dict(variants)
