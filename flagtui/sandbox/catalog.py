"""What strategies can be built from: strategy types, context fields and segments.

`GET /api/admin/strategies` answers `{version: 1, strategies}` as real Unleash 8.2 does on a
fresh install (flexibleRollout, default, remoteAddress, applicationHostname, in its sort
order), plus `userWithId`, deprecated, as an install upgraded from Unleash 3 or 4 still has
it (the demo data uses it; the SDKs evaluate it). `GET /api/admin/context` answers the bare
array of context fields: real Unleash's five (environment, userId, appName, currentTime,
sessionId; only sessionId is a stickiness field there) and the demo's own, each with how many
live flags and projects use it (`context_fields` serves them from the database, which starts
with these: `seed_context_fields`). `GET /api/admin/segments` answers `{segments}`.

Strategy types are fixed (no route changes them here), so they live in code rather than in
the database; segments and context fields are in the database.
"""

from __future__ import annotations

import json
import sqlite3

from flagtui.sandbox import shapes_rollout as shapes
from flagtui.sandbox.inputs import Call


def _param(name: str, type_: str, description: str, required: bool) -> shapes.StrategyParameter:
    return {"name": name, "type": type_, "description": description, "required": required}


STRATEGY_TYPES: list[shapes.StrategyType] = [
    {
        "displayName": "Gradual rollout",
        "name": "flexibleRollout",
        "editable": False,
        "description": "Roll out to a percentage of your userbase, and ensure that the"
        " experience is the same for the user on each visit.",
        "parameters": [
            _param("rollout", "percentage", "", False),
            _param(
                "stickiness",
                "string",
                "Used define stickiness. Possible values: default, userId, sessionId, random",
                True,
            ),
            _param(
                "groupId",
                "string",
                "Used to define a activation groups, which allows you to correlate across"
                " feature toggles.",
                True,
            ),
        ],
        "deprecated": False,
        "title": None,
    },
    {
        "displayName": "Standard",
        "name": "default",
        "editable": False,
        "description": "This strategy turns on / off for your entire userbase. Prefer using"
        ' "Gradual rollout" strategy (100%=on, 0%=off).',
        "parameters": [],
        "deprecated": False,
        "title": None,
    },
    {
        "displayName": "IPs",
        "name": "remoteAddress",
        "editable": False,
        "description": "Enable the feature for a specific set of IP addresses.",
        "parameters": [
            _param("IPs", "list", "List of IPs to enable the feature toggle for.", True)
        ],
        "deprecated": False,
        "title": None,
    },
    {
        "displayName": "Hosts",
        "name": "applicationHostname",
        "editable": False,
        "description": "Enable the feature for a specific set of hostnames.",
        "parameters": [
            _param(
                "hostNames", "list", "List of hostnames to enable the feature toggle for.", False
            )
        ],
        "deprecated": False,
        "title": None,
    },
    {
        "displayName": "UserIDs",
        "name": "userWithId",
        "editable": True,
        "description": "Enable the feature for a specific set of userIds.",
        "parameters": [_param("userIds", "list", "", False)],
        "deprecated": True,
        "title": None,
    },
]
STRATEGY_NAMES = frozenset(s["name"] for s in STRATEGY_TYPES)


def _field(
    name: str, description: str, order: int, stickiness: bool = False, legal: tuple[str, ...] = ()
) -> shapes.ContextField:
    return {
        "name": name,
        "description": description,
        "stickiness": stickiness,
        "sortOrder": order,
        "legalValues": [{"value": v, "description": ""} for v in legal],
        "createdAt": None,
        "usedInFeatures": 0,
        "usedInProjects": 0,
    }


CONTEXT_FIELDS: list[shapes.ContextField] = [
    _field("environment", "Allows you to constrain on application environment", 0),
    _field("userId", "Allows you to constrain on userId", 1),
    _field("appName", "Allows you to constrain on application name", 2),
    _field("currentTime", "Allows you to constrain on date values", 3),
    _field("sessionId", "Allows you to constrain on sessionId", 4, stickiness=True),
    _field("tenantId", "The customer tenant the user belongs to", 10, stickiness=True),
    _field("country", "ISO 3166 country code of the user", 11),
    _field("appVersion", "Version of the client application (semver)", 12),
    _field("tenantSize", "Number of seats in the tenant", 13),
    _field("plan", "Subscription plan", 14, legal=("free", "pro", "premium", "enterprise")),
    _field("platform", "Client platform", 15, legal=("web", "ios", "android")),
    _field("email", "E-mail address of the user", 16),
]
CONTEXT_BY_NAME = {f["name"]: f for f in CONTEXT_FIELDS}
"""The fixed fields a new database starts with (its own list may differ since)."""


def list_strategies(call: Call) -> shapes.StrategyTypes:
    return {"version": 1, "strategies": STRATEGY_TYPES}


def seed_context_fields(conn: sqlite3.Connection) -> None:
    """A new database's context fields: the fixed ones (created, edited and deleted from then
    on: `context_fields`)."""
    conn.executemany(
        "INSERT INTO context_fields (name, description, stickiness, sort_order, legal_values,"
        " created_at) VALUES (?,?,?,?,?,?)",
        [
            (
                f["name"],
                f["description"],
                int(f["stickiness"]),
                f["sortOrder"],
                json.dumps(f["legalValues"]),
                f["createdAt"],
            )
            for f in CONTEXT_FIELDS
        ],
    )


def list_segments(call: Call) -> shapes.Segments:
    with call.db.read() as conn:
        usage = {
            r[0]: (r[1], r[2])
            for r in conn.execute(
                "SELECT CAST(used AS INTEGER), count(DISTINCT feature), count(DISTINCT project)"
                " FROM strategy_segments WHERE live GROUP BY used"
            )
        }
        segments: list[shapes.Segment] = [
            {
                "id": row["id"],
                "name": row["name"],
                "description": row["description"],
                "constraints": json.loads(row["constraints"]),
                "createdBy": None,
                "createdAt": None,
                "usedInFeatures": usage.get(row["id"], (0, 0))[0],
                "usedInProjects": usage.get(row["id"], (0, 0))[1],
            }
            for row in conn.execute("SELECT * FROM segments ORDER BY id")
        ]
    return {"segments": segments}
