"""A stored delivery as triage holds it: the row's columns back into the API's JSON of it, as
the client's model would print it (`api.models.IntegrationEvent`, camelCase, every field). Both
readers (`queries` through SQLAlchemy, `sqlite_reads` through sqlite3) build it here, without
pydantic: a fresh archive's answer then loads no model of the client.

The archive holds what a server sent, so its JSON is checked, never trusted: a triggering event
is kept only in the shape `store.delivery_row` writes it (the model's dump: `EVENT_FIELDS`, its
times as the model prints them), else the delivery is given without it, as one the model could
not read; a time or a column that is not what the schema says makes the row unreadable
(`ValueError`, which the readers count)."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from flagtui.triage.records import Delivery

# `api.models.EventRecord`'s fields, by their wire names, in its order (its dump's), with the
# types the model accepts: "str?" a text or null, "int"/"str" required, "any" any JSON value.
EVENT_FIELDS = {
    "id": "int",
    "createdAt": "time",
    "type": "str",
    "createdBy": "str?",
    "createdByUserId": "int?",
    "environment": "str?",
    "project": "str?",
    "featureName": "str?",
    "data": "any",
    "preData": "any",
    "tags": "tags",
    "label": "str?",
    "summary": "str?",
}
REQUIRED = ("id", "createdAt", "type")


def archived_delivery(
    delivery_id: int,
    integration_id: int,
    created_at: datetime,
    state: str,
    state_details: str | None,
    event: Any,
    details: Any,
) -> Delivery:
    """The delivery as the server sent it, masked as it was stored (`store.delivery_row`)."""
    if not isinstance(integration_id, int) or isinstance(integration_id, bool):
        raise ValueError(f"not an integration id: {integration_id!r}")
    if not isinstance(state, str) or not isinstance(state_details, str | None):
        raise ValueError("a state that is not a text")
    wire = {
        "id": str(delivery_id),
        "integrationId": integration_id,
        "createdAt": wire_time(created_at),
        "state": state,
        "stateDetails": state_details,
        "event": _event(event),
        "details": json_value(details) if isinstance(details, dict) else None,
    }
    return Delivery(str(delivery_id), integration_id, created_at, state, state_details, wire)


def wire_time(moment: datetime) -> str:
    """A time as the API's models print it: ISO 8601, UTC as `Z`."""
    text = moment.isoformat()
    return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text


def json_value(value: Any) -> Any:
    """A JSON value as the models print it: a number that is not finite (`NaN`, which Python's
    json reads) is null."""
    if isinstance(value, dict):
        return {key: json_value(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_value(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _event(event: Any) -> dict[str, Any] | None:
    """The stored event in the model's shape (the fields it has, in the model's order); None
    when it is not one the model would print as stored."""
    if not isinstance(event, dict) or any(name not in event for name in REQUIRED):
        return None
    shaped = {}
    for name, kind in EVENT_FIELDS.items():
        if name in event:
            value = event[name]
            if not _fits(kind, value):
                return None
            shaped[name] = _shaped(kind, value)
    return shaped


def _shaped(kind: str, value: Any) -> Any:
    """A value that fits, as the model prints it (a tag's fields only; no `NaN`)."""
    if kind == "any":
        return json_value(value)
    if kind == "tags" and value is not None:
        return [{"value": tag["value"], "type": tag["type"]} for tag in value]
    return value


def _fits(kind: str, value: Any) -> bool:
    if kind == "any":
        return True
    if value is None:
        return kind.endswith("?") or kind == "tags"
    if kind.startswith("int"):
        return isinstance(value, int) and not isinstance(value, bool)
    if kind.startswith("str"):
        return isinstance(value, str)
    if kind == "time":
        return isinstance(value, str) and _printed_as_stored(value)
    return isinstance(value, list) and all(  # tags: [{"value": "…", "type": "…"}]
        isinstance(tag, dict)
        and isinstance(tag.get("value"), str)
        and isinstance(tag.get("type"), str)
        for tag in value
    )


def _printed_as_stored(text: str) -> bool:
    """Whether the model would print this time as it is (the store wrote the model's dump)."""
    try:
        return wire_time(datetime.fromisoformat(text)) == text
    except ValueError:
        return False
