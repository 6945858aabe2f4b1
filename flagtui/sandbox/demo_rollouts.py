"""Three demo flags of the `default` project given the rollouts people try first, in
production: a 10 % gradual rollout, one on for beta tenants only (a `tenantId` constraint),
and a 50/50 A/B split (strategy variants sticky on userId). The first three live flags of
the project by name get them, after the seeded data is written (which stays as it was)."""

from __future__ import annotations

import sqlite3
from typing import Any

from flagtui.sandbox.db import dumps

ENVIRONMENT = "production"


def _examples(name: str) -> list[tuple[str, dict[str, str], list[Any], list[Any]]]:
    """(title, parameters, constraints, variants) of each example, for flag `name`."""
    rollout = {"rollout": "10", "stickiness": "default", "groupId": name}
    everyone = {"rollout": "100", "stickiness": "default", "groupId": name}
    beta = {
        "contextName": "tenantId",
        "operator": "IN",
        "caseInsensitive": False,
        "inverted": False,
        "values": ["acme-beta", "globex-beta"],
        "value": "",
    }
    split = [
        {
            "name": v,
            "weight": 500,
            "weightType": "variable",
            "stickiness": "userId",
            "payload": {"type": "string", "value": v},
        }
        for v in ("control", "treatment")
    ]
    return [
        ("10% of production", rollout, [], []),
        ("Beta tenants", everyone, [beta], []),
        ("A/B split", everyone, [], split),
    ]


def add_rollout_examples(conn: sqlite3.Connection) -> list[str]:
    names = [
        r[0]
        for r in conn.execute(
            "SELECT f.name FROM features f JOIN feature_environments fe ON fe.feature = f.name"
            " AND fe.environment = ? WHERE f.project = 'default' AND f.archived_at IS NULL"
            " AND f.stage = 'live' ORDER BY f.name LIMIT 3",
            (ENVIRONMENT,),
        )
    ]
    for example, name in enumerate(names):
        title, parameters, constraints, variants = _examples(name)[example]
        conn.execute(
            "DELETE FROM strategies WHERE feature = ? AND environment = ?", (name, ENVIRONMENT)
        )
        conn.execute(
            "INSERT INTO strategies VALUES (?,?,?,'flexibleRollout',?,0,0,?,?,'[]',?)",
            (
                f"rollout-example-{example}",
                name,
                ENVIRONMENT,
                title,
                dumps(parameters),
                dumps(constraints),
                dumps(variants),
            ),
        )
        conn.execute(
            "UPDATE feature_environments SET enabled = 1 WHERE feature = ? AND environment = ?",
            (name, ENVIRONMENT),
        )
    return names
