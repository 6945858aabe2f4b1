"""The failures view on a delivery archive (issue 13, item 3), chosen by the profile's
`archive_url`: each row says where it was read from, the window says its gaps, and the default
window is 24h. The archive is a real one, written with the collector's own store."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.triage.records import Gap
from flagtui.triage.source import LiveSource
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.triage_view import now_utc, span
from tests.archive.unreadable import break_two_failures

from .areas import rows, settle
from .failures import PROJECT, archive_of, datadog, keys, moved_to
from .helpers import screen_text, toast_text, visible_text


async def test_archive_rows_say_their_source_and_the_window_its_gaps(
    sandbox, client, tmp_path
) -> None:
    live = await LiveSource(client).window(None)
    now = now_utc()
    moved = [
        moved_to(f, now - timedelta(minutes=1 + 20 * n)) for n, f in enumerate(live.failures[:100])
    ]  # one every 20 minutes: 72 in the last day
    hook = await datadog(client)
    gaps = [
        # 23 h ago: yesterday for most of the day, so the span carries its date (the long case)
        Gap(hook.id, now - timedelta(hours=23), now - timedelta(hours=22, minutes=30)),
        Gap(2, now - timedelta(hours=9), now - timedelta(hours=8)),
        Gap(hook.id, now - timedelta(days=3), now - timedelta(days=2)),  # not in 24h
    ]
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    url = archive_of(tmp_path / "archive.db", sandbox.url, live.integrations, moved, gaps)
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            in_day = [f for f in moved if f.delivery.created_at >= now - timedelta(hours=24)]
            assert f"window 24h (w) · {len(in_day)} failures" in visible_text(
                app, "#failures-status"
            )
            assert keys(app) == [f"{f.integration.id}:{f.delivery.id}" for f in in_day]
            origins = [row[4] for row in rows(app, "#failures")]
            assert set(origins) == {"archive"}
            said = visible_text(app, "#failures-source")
            assert "archive" in said and "2 gaps (deliveries may be missing):" in said
            assert f"{hook.label} {span(gaps[0].start, gaps[0].end)}" in said
            assert "live: the server keeps" not in said
            await pilot.press("j")
            assert "· archive" in visible_text(app, "#failure-preview")
            await pilot.press("w")  # 24h -> 7d: the older gap too
            await settle(pilot)
            assert "3 gaps (deliveries may be missing):" in visible_text(app, "#failures-source")


async def test_unreadable_archive_rows_are_skipped_and_said_on_screen(
    sandbox, client, tmp_path
) -> None:
    live = await LiveSource(client).window(None)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    path = tmp_path / "archive.db"
    url = archive_of(path, sandbox.url, live.integrations, live.failures, [])
    broken = break_two_failures(path)
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("w", "w")  # 24h -> 7d -> all: the demo's deliveries are from 2025
            await settle(pilot)
            assert "2 rows unreadable (skipped)" in visible_text(app, "#failures-source")
            assert not {f"{i}:{d}" for i, d in broken} & set(keys(app))
            assert keys(app), "the readable rows are shown"
            await pilot.press("equals_sign")  # grouped: the bad time is left out there too
            await settle(pilot)
            assert "1 row unreadable (skipped)" in visible_text(app, "#failures-source")


async def test_an_archive_of_a_newer_schema_is_said_to_be_a_newer_flagtuis(
    sandbox, client, tmp_path
) -> None:
    live = await LiveSource(client).window(None)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    path = tmp_path / "archive.db"
    url = archive_of(path, sandbox.url, live.integrations, live.failures, [])
    with sqlite3.connect(path) as conn:  # as a newer flagtui's migration leaves it
        conn.execute(
            "INSERT INTO schema_version SELECT max(version) + 1, '2026-01-01' FROM schema_version"
        )
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(80, 30)) as pilot:  # the whole sentence, at 80 columns
            await settle(pilot)
            shown = " ".join(f"{screen_text(app)} {toast_text(app)}".split())  # unwrapped
            assert "was written by a newer flagtui (schema version" in shown, shown
            assert "upgrade flagtui, or give this profile another archive_url" in shown, shown
            assert "Unexpected" not in shown, shown
