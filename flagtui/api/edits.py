"""Edits made against what was shown (issue 43, items 3 and 7).

A form, a key or a command hands the client one `Edit`: the request it showed (`plan`, already
checked) and the state it was made from (`opened_on`, as the request body would carry it). The
client reads the object again just before sending and compares it with `opened_on` once: if
someone changed it since, nothing is sent and `EditConflict` says what changed, and by whom and
when as the event log recorded it. Unleash has no conditional writes for these routes (no ETag,
no If-Match): this compare is the only guard, and the window it leaves is one round trip.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flagtui.api.errors import FlagtuiError
from flagtui.api.models import EventRecord
from flagtui.api.rollout_requests import PlannedWrite

RECORDED_SHOWN = 3  # the newest events of the object said with a conflict


@dataclass(frozen=True)
class Edit:
    """A checked request, the state it was made from (None: it replaces nothing, an add) and
    the checked value the request carries (what a preview evaluates)."""

    plan: PlannedWrite
    opened_on: Mapping[str, Any] | None
    checked: Any = None


@dataclass(frozen=True)
class FieldChange:
    field: str
    shown: Any
    now: Any


def changed_fields(shown: Mapping[str, Any], now: Mapping[str, Any]) -> list[FieldChange]:
    """The top-level fields whose value differs, in the order the state lists them."""
    fields = [*shown, *(k for k in now if k not in shown)]
    return [FieldChange(f, shown.get(f), now.get(f)) for f in fields if shown.get(f) != now.get(f)]


class EditConflict(FlagtuiError):
    """The object changed on the server since the form or plan was made from it: nothing was
    sent. `now` is the state read just before sending; `recorded` the object's newest events
    (who and when), empty where the server's event log could not say."""

    def __init__(
        self,
        what: str,
        action: str,
        changed: Sequence[FieldChange],
        now: Any,
        recorded: Sequence[EventRecord] = (),
    ) -> None:
        self.what = what
        self.action = action
        self.changed = list(changed)
        self.now = now
        self.recorded = list(recorded)
        fields = ", ".join(c.field for c in self.changed)
        super().__init__(
            f"{what} was changed on the server since it was shown ({fields}): {action} was not"
            " sent."
        )

    def lines(self) -> list[str]:
        """What changed and who changed it, as plain text (the caller's display boundary
        renders it)."""
        said = [f"{c.field}: shown {_short(c.shown)}, now {_short(c.now)}" for c in self.changed]
        if not self.recorded:
            said.append("The event log does not say who changed it.")
        for event in self.recorded[:RECORDED_SHOWN]:
            when = event.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")
            said.append(f"{event.type} by {event.created_by or 'unknown'} at {when}")
        return said


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
