"""What a server can do, read from GET /api/admin/ui-config."""

from __future__ import annotations

from typing import Any, Literal

from flagtui.api.models import ServerInfo

# POST /api/admin/events/search was removed in Unleash 7 for GET /api/admin/search/events.
EVENT_SEARCH_POST_REMOVED_IN = 7


def server_info(ui_config: dict[str, Any]) -> ServerInfo:
    current = (ui_config.get("versionInfo") or {}).get("current") or {}
    enterprise = current.get("enterprise")
    version = enterprise or current.get("oss") or ui_config.get("version") or "unknown"
    return ServerInfo(
        version=str(version),
        edition="enterprise" if enterprise else "oss",
        name=ui_config.get("name"),
        sandbox=bool(ui_config.get("sandbox")),
    )


def major_version(version: str) -> int | None:
    head = version.lstrip("v").split(".", 1)[0]
    return int(head) if head.isdigit() else None


def event_search_route(server: ServerInfo) -> Literal["post", "get"] | None:
    """`post` for the contract's route, `get` for Unleash 7+, None to try POST then fall back."""
    if server.sandbox:
        return "post"
    major = major_version(server.version)
    if major is None:
        return None
    return "get" if major >= EVENT_SEARCH_POST_REMOVED_IN else "post"
