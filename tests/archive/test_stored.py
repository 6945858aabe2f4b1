"""A stored delivery is read back without pydantic (`archive.stored`), and prints exactly as the
client's model printed it before: every delivery the sandbox holds, stored as the collector
stores it; and a hostile stored event either prints as the model would, or is left out (the
delivery without it), never a traceback."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from flagtui.api.models import IntegrationEvent
from flagtui.archive.store import delivery_row
from flagtui.archive.stored import archived_delivery

AT = datetime(2026, 11, 26, 12, 0, 0, 874000, tzinfo=UTC)
EVENT = {"id": 7, "createdAt": "2026-11-26T11:59:59.500000Z", "type": "feature-updated"}


def as_the_model_printed(columns: dict[str, Any]) -> dict[str, Any]:
    """The code before: the row validated into the client's model, the event left out when
    the model cannot read it, printed as the API's JSON."""
    wire = {
        "id": str(columns["delivery_id"]),
        "integrationId": columns["integration_id"],
        "createdAt": columns["created_at"],
        "state": columns["state"],
        "stateDetails": columns["state_details"],
        "event": columns["event"],
        "details": columns["details"] if isinstance(columns["details"], dict) else None,
    }
    try:
        model = IntegrationEvent.model_validate(wire)
    except ValidationError:
        model = IntegrationEvent.model_validate(wire | {"event": None})
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


def read_back(columns: dict[str, Any]) -> dict[str, Any]:
    return archived_delivery(
        columns["delivery_id"],
        columns["integration_id"],
        columns["created_at"],
        columns["state"],
        columns["state_details"],
        columns["event"],
        columns["details"],
    ).wire


def stored(event: Any, details: Any = None) -> dict[str, Any]:
    """A row's columns as a reader gets them: the JSON through text, as the database holds it."""
    return {
        "delivery_id": 41,
        "integration_id": 2,
        "created_at": AT,
        "state": "failed",
        "state_details": "Webhook request failed with status code: 503",
        "event": json.loads(json.dumps(event)),
        "details": json.loads(json.dumps(details)),
    }


async def test_every_delivery_of_the_sandbox_reads_back_as_the_model_printed_it(admin_client):
    addons = (await admin_client.integrations.list()).addons
    checked = 0
    for addon in addons:
        for delivery in await admin_client.integrations.events(addon.id, limit=100):
            row = delivery_row(delivery, AT)  # what the collector stores of it
            columns = stored(row["event"], row["details"]) | {
                k: row[k] for k in ("integration_id", "delivery_id", "state", "state_details")
            }
            columns["created_at"] = row["created_at"]
            assert read_back(columns) == as_the_model_printed(columns)
            checked += row["event"] is not None
    assert checked > 10  # deliveries with their events were compared


@pytest.mark.parametrize(
    "event",
    [
        EVENT,
        EVENT | {"tags": [{"value": "a", "type": "simple", "extra": 1}], "unknown": "x"},
        EVENT | {"data": {"n": math.nan, "deep": [math.inf, {"x": 1.5}]}, "preData": None},
        EVENT | {"createdAt": "2026-11-26T13:59:59+02:00", "createdBy": None, "label": "L"},
        EVENT | {"createdAt": "2026-11-26T11:59:59"},  # no zone: printed without one
        None,
        [EVENT],
        "feature-updated",
        {k: v for k, v in EVENT.items() if k != "type"},
        EVENT | {"createdAt": "yesterday"},
        EVENT | {"type": 5},
        EVENT | {"tags": [{"value": 1, "type": "simple"}]},
        EVENT | {"tags": "a,b"},
    ],
)
def test_an_event_prints_as_the_model_printed_it_or_not_at_all_alike(event):
    """Events the model reads as they are, and events it cannot read at all."""
    columns = stored(event, {"message": "m", "ratio": math.nan})
    assert read_back(columns) == as_the_model_printed(columns)


@pytest.mark.parametrize(
    "event",
    [
        EVENT | {"id": "7"},  # the model would read a number's text as the number
        EVENT | {"id": True},
        EVENT | {"createdByUserId": 3.0},
        EVENT | {"createdByUserId": "9"},
        EVENT | {"createdAt": "2026-11-26T11:59:59.5Z"},  # not as the model prints it
        EVENT | {"createdAt": 1764158399},
    ],
)
def test_an_event_not_as_the_store_writes_it_is_left_out(event):
    """The model would have made something of these; the store never writes them so (it
    stores the model's own dump): the delivery is given without its event."""
    columns = stored(event)
    wire = read_back(columns)
    assert wire["event"] is None
    assert wire == as_the_model_printed(columns | {"event": None})


@pytest.mark.parametrize(
    ("column", "value"), [("integration_id", "two"), ("state", None), ("state_details", 5)]
)
def test_a_column_not_as_the_schema_says_makes_the_row_unreadable(column, value):
    with pytest.raises(ValueError):
        read_back(stored(EVENT) | {column: value})


def test_the_event_fields_read_back_are_the_client_models_in_its_order() -> None:
    """`archive.stored` reads a stored event without pydantic, by a list of the fields of the
    client's model: a field added to the model and not to the list would be dropped silently
    from every archived delivery."""
    from flagtui.api.models import EventRecord
    from flagtui.archive.stored import EVENT_FIELDS

    names = [field.alias or name for name, field in EventRecord.model_fields.items()]
    assert list(EVENT_FIELDS) == names
