"""The context the engine is asked with, built as the official Python SDK builds it.

UnleashClient starts from its static context (`appName`, `environment`), lays the caller's
context over it, sets `currentTime` to now when absent, turns every value into a string, and
copies every field that is not a standard one into `properties` (which win over them). The
same here, with the preview's environment in place of the SDK's; `appName` is whatever the
caller gives (an SDK always has one: give it where a constraint names `appName`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

STANDARD_FIELDS = (
    "userId",
    "sessionId",
    "environment",
    "appName",
    "currentTime",
    "remoteAddress",
    "properties",
)


def _text(value: Any) -> str:
    return value.isoformat() if isinstance(value, datetime) else str(value)


def sdk_context(
    context: Mapping[str, Any] | None, environment: str, now: datetime | None = None
) -> dict[str, Any]:
    given: dict[str, Any] = {"environment": environment, **(context or {})}
    if "currentTime" not in given:
        given["currentTime"] = (now or datetime.now(UTC)).isoformat()
    properties = {k: v for k, v in given.items() if k not in STANDARD_FIELDS}
    properties.update(given.get("properties") or {})
    out: dict[str, Any] = {k: _text(v) for k, v in given.items() if k != "properties"}
    out["properties"] = {k: _text(v) for k, v in properties.items()}
    return out
