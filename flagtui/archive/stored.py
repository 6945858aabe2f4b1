"""A stored delivery as triage holds it: the row's columns back into the API's record. Both
readers (`queries` through SQLAlchemy, `sqlite_reads` through sqlite3) build it here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import ValidationError

from flagtui.api.models import IntegrationEvent


def archived_delivery(
    delivery_id: int,
    integration_id: int,
    created_at: datetime,
    state: str,
    state_details: str | None,
    event: Any,
    details: Any,
) -> IntegrationEvent:
    """The delivery as the server sent it, masked as it was stored (`store.delivery_row`)."""
    wire = {
        "id": str(delivery_id),
        "integrationId": integration_id,
        "createdAt": created_at,
        "state": state,
        "stateDetails": state_details,
        "event": event,
        "details": details if isinstance(details, dict) else None,
    }
    try:
        return IntegrationEvent.model_validate(wire)
    except ValidationError:  # an event this flagtui cannot read: the delivery without it
        return IntegrationEvent.model_validate(wire | {"event": None})
