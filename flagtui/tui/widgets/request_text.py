"""Exactly the requests a write will send, as every question before a write shows them."""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.text import Text

from flagtui.api.rollout_requests import PlannedWrite


def shown_requests(plans: Sequence[PlannedWrite]) -> Text:
    """Each request as it is sent: its line, then its JSON body."""
    out = Text()
    for plan in plans:
        shown = plan.shown()
        out.append(f"{shown['method']} {shown['path']}\n", style="bold")
        if shown["body"] is not None:
            out.append(json.dumps(shown["body"], ensure_ascii=False) + "\n")
    return out
