"""From a record that names a flag (an event, a delivery's triggering event) to the flag's detail,
pushed over the record: Escape comes back. The detail reads the live flag, else its row among
the archived flags (and says it is archived); a flag that is in neither says it is gone."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from flagtui.api.models import EventRecord, IntegrationEvent


def open_flag_of_event(screen: Screen[Any], event: EventRecord | None, what: str) -> None:
    """`what` names the record for the message when there is no flag to open ("This event")."""
    if event is None or not event.feature_name:
        screen.notify(f"{what} names no flag: nothing to open.", timeout=4)
        return
    if not event.project:
        screen.notify(
            f"{what} names flag {event.feature_name!r} but no project: it cannot be read.",
            severity="warning",
            timeout=4,
        )
        return
    # Imported once a flag is opened: the detail brings its strategy editor and the SDKs'
    # evaluation engine, which the screens that may open it (failures, events) do not need.
    from flagtui.tui.screens.feature_detail import FeatureDetailScreen

    screen.app.push_screen(FeatureDetailScreen(event.project, event.feature_name))


def open_flag_of_delivery(screen: Screen[Any], delivery: IntegrationEvent | None) -> None:
    if delivery is not None:
        open_flag_of_event(screen, delivery.event, "This delivery's event")
