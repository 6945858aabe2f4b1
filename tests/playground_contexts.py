"""Playground contexts and what real Unleash 8.2.0 answers them (checked there with curl): its
request schema coerces numbers, booleans and null to strings, refuses objects and arrays where a
string is due, `currentTime` that is no date-time, and `properties` that is no object; a field of
the context's own at the top level is taken whatever it is."""

from __future__ import annotations

from typing import Any

CONTEXTS: list[tuple[dict[str, Any], int]] = [
    ({"properties": {"x": None}}, 200),
    ({"userId": None}, 200),
    ({"tenantId": None}, 200),
    ({"userId": 5}, 200),
    ({"userId": True}, 200),
    ({"properties": {"x": 5, "y": True}}, 200),
    ({"tenantId": {}}, 200),
    ({"tenantId": []}, 200),
    ({"remoteAddress": ""}, 200),
    ({"currentTime": "2024-01-01T00:00:00Z"}, 200),
    ({"userId": {}}, 400),
    ({"sessionId": []}, 400),
    ({"currentTime": ""}, 400),
    ({"currentTime": "nope"}, 400),
    ({"properties": None}, 400),
    ({"properties": {"x": {}}}, 400),
    ({"appName": ""}, 400),
]


def playground_body(project: str, context: dict[str, Any]) -> dict[str, Any]:
    return {
        "environment": "development",
        "projects": [project],
        "context": {"appName": "parity", **context},
    }
