"""What a server can do, read from GET /api/admin/ui-config: edition and version.

The first OSS version serving each area comes from Unleash's source (README's compatibility
table lists the versions CI runs). The sandbox follows the contract and serves everything.
"""

from __future__ import annotations

from typing import Any, Literal

from flagtui.api.models import ServerInfo

Version = tuple[int, int, int]

# POST /api/admin/events/search was removed in Unleash 7 for GET /api/admin/search/events,
# which exists from 6.1; its date parameters were createdAtFrom/To in 6.1, from/to since 6.2.
EVENT_SEARCH_POST_REMOVED_IN: Version = (7, 0, 0)
EVENT_SEARCH_GET_SINCE: Version = (6, 1, 0)
EVENT_DATES_FROM_TO_SINCE: Version = (6, 2, 0)

# Areas and the first version serving them.
INTEGRATION_DELIVERIES = "Integration deliveries"  # flagged in 6.1, always on from 6.2
LIFECYCLE = "Flag lifecycle"  # flagged until 6.3
FEATURE_TYPE_LIFETIME = "Feature type lifetime"  # flagged until 5.5 (409, empty body, when off)
EVENT_DATES = "Event search by date"
# 5.x keeps archived flags at GET /api/admin/archive/features/:project, which flagtui does not
# read; the feature search finds them on 6.10.1 (`archived=IS:true`), not on 5.12.8.
ARCHIVED_FLAGS = "Archived flags"
FIRST_VERSION: dict[str, Version] = {
    ARCHIVED_FLAGS: (6, 0, 0),
    INTEGRATION_DELIVERIES: (6, 1, 0),
    LIFECYCLE: (5, 12, 0),
    FEATURE_TYPE_LIFETIME: (5, 3, 0),
    EVENT_DATES: EVENT_SEARCH_GET_SINCE,
}
# Versions where the area exists behind a flag the server may have off: the version that
# turned the flag on for everyone.
ALWAYS_ON_FROM: dict[str, Version] = {
    INTEGRATION_DELIVERIES: (6, 2, 0),
    LIFECYCLE: (6, 3, 0),
    FEATURE_TYPE_LIFETIME: (5, 5, 0),
}


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


def parse_version(version: str) -> Version | None:
    """`8.2.0`, `v6.10.1`, `7.0.0-beta.2+build` -> a tuple; None when it is not a version."""
    core = version.strip().lstrip("v").split("-", 1)[0].split("+", 1)[0]
    parts = core.split(".")
    if not parts[0].isdigit():
        return None
    numbers = [int(p) if p.isdigit() else 0 for p in parts[:3]] + [0, 0]
    return numbers[0], numbers[1], numbers[2]


def version_text(version: Version) -> str:
    """`6.1` for (6, 1, 0), `6.10.1` for (6, 10, 1)."""
    shown = version if version[2] else version[:2]
    return ".".join(str(n) for n in shown)


def _version(server: ServerInfo | None) -> Version | None:
    """The server's version when it decides anything: not for the sandbox nor an unknown one."""
    if server is None or server.sandbox:
        return None
    return parse_version(server.version)


def event_search_route(server: ServerInfo) -> Literal["post", "get"] | None:
    """`post` for the contract's route, `get` for Unleash 7+, None to try POST then fall back."""
    if server.sandbox:
        return "post"
    version = _version(server)
    if version is None:
        return None
    return "get" if version >= EVENT_SEARCH_POST_REMOVED_IN else "post"


def post_search_offset_is_an_event_id(server: ServerInfo | None) -> bool:
    """The contract's POST /events/search takes `offset` as an event id; real Unleash (5.x and
    6.x, which serve that route) as a row offset, as its GET search does."""
    return _version(server) is None


def event_date_params(server: ServerInfo | None) -> tuple[str, str]:
    """The GET event search's date parameter names on this server."""
    version = _version(server)
    if version is not None and version < EVENT_DATES_FROM_TO_SINCE:
        return "createdAtFrom", "createdAtTo"
    return "from", "to"


# The feature search's `lifecycle=IS:archived` (seen on 8.2.0, not on 7.5.1); older servers
# know the `archived=IS:true` filter (8.2.0 still does, deprecated).
ARCHIVED_BY_LIFECYCLE_SINCE: Version = (8, 2, 0)


def archived_by_lifecycle(server: ServerInfo | None) -> bool:
    version = _version(server)
    return version is None or version >= ARCHIVED_BY_LIFECYCLE_SINCE


def missing(server: ServerInfo | None, area: str) -> str | None:
    """What the server needs to serve `area` ("Unleash 6.1"), or None when it serves it (or
    its version is unknown: then the server's own answer decides)."""
    version = _version(server)
    first = FIRST_VERSION[area]
    if version is None or version >= first:
        return None
    return f"Unleash {version_text(first)}"


def behind_a_flag(server: ServerInfo | None, area: str) -> bool:
    """True when the server's version has the area only behind a flag it may have off."""
    version, always = _version(server), ALWAYS_ON_FROM.get(area)
    return version is not None and always is not None and FIRST_VERSION[area] <= version < always


def flag_off_needs(server: ServerInfo | None, area: str) -> str:
    """What to say when a server that has the area answers as if it had not (its flag off)."""
    always = ALWAYS_ON_FROM.get(area)
    first = FIRST_VERSION[area]
    if always is None:
        return f"Unleash {version_text(first)}"
    return f"Unleash {version_text(always)} (or {version_text(first)} with the area's flag on)"


def at_least(server: ServerInfo | None, version: Version) -> bool:
    """True when the server is `version` or newer, or its version does not decide (the
    sandbox, which follows the newest rules, or a version that cannot be read)."""
    known = _version(server)
    return known is None or known >= version
