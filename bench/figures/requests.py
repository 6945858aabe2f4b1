"""5. Requests per action: an in-process Pilot run, its requests counted at the server."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from bench.harness import COLS, ROWS, Sandbox


async def _requests(sb: Sandbox) -> dict[str, Any]:
    from flagtui.api import AdminClient
    from flagtui.config import Profile
    from flagtui.tui.app import FlagtuiApp
    from testkit.pilot import until_idle  # the Pilot tests' own wait: no worker under way

    state = Path(tempfile.mkdtemp(prefix="flagtui-bench-state-")) / "state.json"
    client = AdminClient(sb.url, sb.token, profile="bench")
    app = FlagtuiApp(client, Profile(name="bench", url=sb.url), state_path=state)
    out: dict[str, Any] = {}
    routes: dict[str, Any] = {}
    n_addons = len(sb.get("/api/admin/addons")["addons"])
    async with app.run_test(size=(COLS, ROWS)) as pilot:
        await until_idle(app, pilot)
        # Feature detail: Enter on the first row of the features area.
        sb.reset_counts()
        await pilot.press("enter")
        await until_idle(app, pilot)
        c = sb.counts()
        out["feature_detail"], routes["feature_detail"] = c["total"], c["by_route"]
        await pilot.press("escape")
        await until_idle(app, pilot)
        # All-integrations failures view.
        sb.reset_counts()
        app.switch_area("failures")
        await until_idle(app, pilot)
        c = sb.counts()
        out["failures_view"], routes["failures_view"] = c["total"], c["by_route"]
        out["failures_view_minimum"] = 1 + n_addons
        sb.reset_counts()
        app.switch_area("events")
        await until_idle(app, pilot)
        c = sb.counts()
        routes["event_log_open"] = c["by_route"]
        out["event_log_open"] = c["total"]
        # One search as a person runs it: type a word in the free-text box key by key
        # (debounced), press Enter.
        sb.reset_counts()
        app.screen.query_one("#query").focus()
        await pilot.press(*"tagged", "enter")
        await until_idle(app, pilot)  # the debounced search is a worker too
        c = sb.counts()
        routes["event_search"] = c["by_route"]
        out["event_search"] = c["total"]
    await client.aclose()
    out["by_route"] = routes
    return out


def bench_requests(demo: Sandbox) -> dict[str, Any]:
    return {"requests_per_action": asyncio.run(_requests(demo))}
