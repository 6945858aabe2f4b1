"""What a write prints: done (the event Unleash records for it), or nothing sent because the
record was already as asked."""

from __future__ import annotations

from typing import Any

from flagtui.api import NothingToSend
from flagtui.cli.output import Printer


def unchanged(out: Printer, unchanged: NothingToSend, **what: Any) -> None:
    """Already as asked (read just before): nothing sent, exit 0, said."""
    if out.is_json or out.format == "csv":
        out.one(
            {"done": None, "featureName": unchanged.feature, "unchanged": unchanged.state, **what}
        )
    else:
        out.note(f"nothing sent: {unchanged}")


def done(out: Printer, event: str, **what: Any) -> None:
    if out.is_json or out.format == "csv":
        out.one({"done": event, **what})
    else:
        out.note(f"done: {event} " + " ".join(f"{k}={v}" for k, v in what.items()))
