"""The failures view says up to when its answer is known (issue 23, items 1 and 2): the
archive's last collection on the source line, the rows the live server added to an old archive
with their origin, and follow mode's "updated" as the data's age, not the read's. A real
archive (SQLite) and the real sandbox."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from datetime import timedelta

from flagtui.api import AdminClient
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.source import ArchiveSource
from flagtui.archive.store import Archive
from flagtui.config import Profile
from flagtui.triage.records import IntegrationRef
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.failures import FailuresScreen
from flagtui.tui.triage_view import moment, now_utc

from .areas import rows, settle
from .failures import PROJECT, forget_a_new_failure, keys, new_failures, until
from .helpers import visible_text

LONG_AGO = timedelta(hours=3, minutes=30)  # "3 h ago" for half an hour either way


def collected_archive(path, server_url: str, refs: list[IntegrationRef], ago: timedelta) -> str:
    """A real archive whose only collection (every integration, nothing stored) was `ago`."""
    url = sqlite_url(path)
    archive = Archive.open(url, server_url)
    try:
        archive.sync_integrations(refs, now_utc())
        ids = [ref.id for ref in refs]
        archive.record_collection(ids, now_utc() - ago, whole_server=True)
    finally:
        archive.close()
    return url


async def test_an_old_archive_says_so_and_shows_the_live_rows_it_lacked(
    sandbox, client, tmp_path
) -> None:
    refs = [IntegrationRef.of(a) for a in (await client.integrations.list()).addons]
    url = collected_archive(tmp_path / "archive.db", sandbox.url, refs, LONG_AGO)
    made = await new_failures(client)  # on the server only: the collector is stopped
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            said = visible_text(app, "#failures-source")
            assert said.strip().startswith("archive collected until")
            assert "(3 h ago) + live" in said
            assert made <= set(keys(app))
            origin = {
                key: row[4] for key, row in zip(keys(app), rows(app, "#failures"), strict=True)
            }
            assert {origin[key] for key in made} == {"live"}


async def test_a_collection_later_than_now_says_the_clock_runs_ahead(
    sandbox, client, tmp_path
) -> None:
    """Before: "(0 s ago)", and the server never asked (issue 43, item 4)."""
    refs = [IntegrationRef.of(a) for a in (await client.integrations.list()).addons]
    url = collected_archive(tmp_path / "archive.db", sandbox.url, refs, -timedelta(hours=1))
    made = await new_failures(client)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(120, 24)) as pilot:
            await settle(pilot)
            said = visible_text(app, "#failures-source")
            assert "(later than now: the collector's clock runs ahead)" in said
            assert "0 s ago" not in said and "+ live" in said
            assert made <= set(keys(app))


async def test_following_says_the_datas_age_not_the_reads(sandbox, client, tmp_path) -> None:
    refs = [IntegrationRef.of(a) for a in (await client.integrations.list()).addons]
    url = collected_archive(tmp_path / "archive.db", sandbox.url, refs, LONG_AGO)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, FailuresScreen)
            # The archive alone, as when the server is never asked (no live source).
            screen.source = ArchiveSource(url, sandbox.url)
            await pilot.press("F")
            first = screen.answer
            await until(pilot, lambda: screen.answer is not first)
            await settle(pilot)
            assert "following · updated 3 h ago" in visible_text(app, "#failures-status")
            collected = screen.answer.collected_until
            assert collected is not None
            said = visible_text(app, "#failures-source")
            assert f"archive collected until {moment(collected)} (3 h ago)" in said
            assert "+ live" not in said
            screen.source.close()


async def test_an_old_archive_the_server_forgot_past_says_incomplete(
    sandbox, client, tmp_path
) -> None:
    """Collected long ago, then a delivery the server forgot (it keeps about the newest 100):
    the source line says the answer is incomplete, not "+ live" (as it did before)."""
    url = sqlite_url(tmp_path / "archive.db")
    archive = Archive.open(url, sandbox.url)
    try:
        long_ago = now_utc() - LONG_AGO
        await Collector(client, archive, log=lambda _: None, clock=lambda: long_ago).poll()
    finally:
        archive.close()
    for noisy in (2, 5):  # a flaky endpoint and a revoked key: failures of their own
        await client.integrations.set_enabled(noisy, False)
    with closing(sqlite3.connect(sandbox.db_path)) as conn, conn:
        conn.execute(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) SELECT 1, ?, 'failed', 'Webhook request failed', event, '{}'"
            " FROM integration_events LIMIT 1",
            (now_utc().isoformat(timespec="milliseconds").replace("+00:00", "Z"),),
        )
    for n in range(110):  # 100+ deliveries, none failed: the one above is forgotten
        change = [{"op": "replace", "path": "/description", "value": f"forgetting {n}"}]
        await client.features.patch("default", "admin-async-emails", change)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(120, 24)) as pilot:
            await settle(pilot)
            said = visible_text(app, "#failures-source")
            assert "INCOMPLETE: the server no longer lists all since" in said
            assert "+ live" not in said


async def test_a_never_collected_archive_and_a_server_that_forgot_says_incomplete(
    sandbox, client, tmp_path
) -> None:
    """No collection yet: the server answers alone, and says from when it still lists every
    delivery (issue 23, item 1), rather than a quiet "never collected + live"."""
    url = sqlite_url(tmp_path / "archive.db")
    Archive.open(url, sandbox.url).close()
    for noisy in (2, 5):  # a flaky endpoint and a revoked key: failures of their own
        await client.integrations.set_enabled(noisy, False)
    forget_a_new_failure(sandbox.db_path)
    for n in range(110):  # 100+ deliveries, none failed: the one above is forgotten
        change = [{"op": "replace", "path": "/description", "value": f"forgetting {n}"}]
        await client.features.patch("default", "admin-async-emails", change)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"sandbox": {"area": "failures", "project": PROJECT}}))
    profile = Profile(name="sandbox", url=sandbox.url, archive_url=url)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as own:
        app = FlagtuiApp(own, profile, state_path=state)
        async with app.run_test(size=(100, 24)) as pilot:
            await settle(pilot)
            said = visible_text(app, "#failures-source")
            assert "archive never collected · INCOMPLETE before " in said
            assert "+ live" not in said
