"""Start the app straight in one area (as if it was the last one used), for Pilot and snapshot
tests of the integrations, failures, events, users, access and change request areas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from flagtui.tui.app import FlagtuiApp
from testkit.pilot import settle as settle_app

from .helpers import freeze_cursors


def app_in(make_app: Any, tmp_path: Path, area: str, **kwargs: Any) -> FlagtuiApp:
    state = tmp_path / f"state-{area}.json"
    state.write_text(json.dumps({"sandbox": {"area": area, "project": "payments"}}))
    app: FlagtuiApp = make_app(state_path=state, **kwargs)
    return app


async def settle(pilot: Pilot[Any], rounds: int = 4) -> None:
    """`helpers.settle` for the app the pilot drives, with text cursors frozen."""
    await settle_app(pilot.app, pilot, rounds)
    freeze_cursors(pilot.app)


def rows(app: FlagtuiApp, selector: str = "ResourceTable") -> list[list[str]]:
    """The table's rows as plain text, top to bottom."""
    table = app.screen.query_one(selector)
    return [[str(getattr(c, "plain", c)) for c in table.get_row(r.key)] for r in table.ordered_rows]
