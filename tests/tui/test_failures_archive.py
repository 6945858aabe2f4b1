"""The failures view on a delivery archive (issue 13, item 3): each row says where it was read
from, the window says its gaps, and the default window is 24h."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.triage.grouping import error_key, group_failures
from flagtui.triage.records import Failure, FailureWindow, Gap, IntegrationRef, Origin
from flagtui.triage.source import FailureSource, LiveSource, count_in_buckets
from flagtui.tui import app as tui_app
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.triage_view import now_utc, span

from .areas import rows, settle
from .helpers import visible_text
from .test_failures_view import PROJECT, datadog, keys


class ArchiveStandIn:
    """Stands in for the delivery archive's `FailureSource`, which a sibling part builds and is
    not merged yet: the sandbox's real failures, moved into the last day, marked as read from
    the archive (the newest one not stored yet: live), with gaps. Answers only what the
    failures view asks, the way the protocol says."""

    origin: Origin = "archive"

    def __init__(self, failures: list[Failure], refs: list[IntegrationRef], gaps: list[Gap]):
        self.failures, self.refs, self.gaps = failures, refs, gaps

    async def window(
        self,
        since: datetime | None,
        *,
        integration_id: int | None = None,
        key: str | None = None,
        limit: int = 500,
    ) -> FailureWindow:
        chosen = [
            f
            for f in self.failures
            if (since is None or f.delivery.created_at >= since)
            and integration_id in (None, f.integration.id)
            and key in (None, error_key(f.delivery.state_details))
        ]
        gaps = [g for g in self.gaps if since is None or g.end >= since]
        oldest = self.failures[-1].delivery.created_at
        return FailureWindow(
            "archive", since, self.refs, chosen[:limit], [], gaps, oldest, len(chosen)
        )

    async def grouped(self, since: datetime | None) -> FailureWindow:
        window = await self.window(since, limit=10**9)
        window.groups, window.failures = group_failures(window.failures), []
        return window

    async def histogram(
        self, since: datetime, until: datetime, buckets: int
    ) -> dict[int, list[int]]:
        return count_in_buckets([r.id for r in self.refs], self.failures, since, until, buckets)


class ArchiveApp(FlagtuiApp):
    CSS_PATH = Path(tui_app.__file__).with_name("flagtui.tcss")  # relative to the app's module
    stand_in: ArchiveStandIn

    def failure_source(self) -> FailureSource:
        return self.stand_in


async def test_archive_rows_say_their_source_and_the_window_its_gaps(
    sandbox, client, tmp_path
) -> None:
    live = await LiveSource(client).window(None)
    now = now_utc()
    moved = [
        Failure(
            f.integration,
            f.delivery.model_copy(update={"created_at": now - timedelta(minutes=1 + 20 * n)}),
            "live" if n == 0 else "archive",
        )
        for n, f in enumerate(live.failures[:100])
    ]  # one every 20 minutes: 72 in the last day
    hook = await datadog(client)
    gaps = [
        Gap(hook.id, now - timedelta(hours=3), now - timedelta(hours=2, minutes=30)),
        Gap(2, now - timedelta(hours=9), now - timedelta(hours=8)),
        Gap(hook.id, now - timedelta(days=3), now - timedelta(days=2)),  # not in 24h
    ]
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = ArchiveApp(own, Profile(name="sandbox", url=sandbox.url), state_path=state)
        app.stand_in = ArchiveStandIn(moved, live.integrations, gaps)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            in_day = [f for f in moved if f.delivery.created_at >= now - timedelta(hours=24)]
            assert f"window 24h (w) · {len(in_day)} failures" in visible_text(
                app, "#failures-status"
            )
            assert keys(app) == [f"{f.integration.id}:{f.delivery.id}" for f in in_day]
            origins = [row[4] for row in rows(app, "#failures")]
            assert origins[0] == "live" and set(origins[1:]) == {"archive"}
            said = visible_text(app, "#failures-source")
            assert "archive" in said and "2 gaps (deliveries may be missing):" in said
            assert f"{hook.label} {span(gaps[0].start, gaps[0].end)}" in said
            assert "live: the server keeps" not in said
            await pilot.press("j")
            assert "· archive" in visible_text(app, "#failure-preview")
            await pilot.press("w")  # 24h -> 7d: the older gap too
            await settle(pilot)
            assert "3 gaps (deliveries may be missing):" in visible_text(app, "#failures-source")
