"""What the tests of every command check alike: its golden output when piped (JSON), a write's
`--dry-run` sending nothing; and a flag for a test to change."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from datetime import UTC, datetime

import httpx

from flagtui.api import AdminClient
from flagtui.archive.collector import Collector
from flagtui.archive.location import default_archive_path, sqlite_url
from flagtui.archive.store import Archive
from flagtui.sandbox import SandboxServer

from ..conftest import Run, event_count
from .golden import assert_golden

PROJECT = "default"


def assert_piped_golden(run: Run, name: str, *argv: str) -> None:
    """Exit 0, nothing on stderr, and the JSON printed is the golden `name`."""
    result = run(*argv)
    assert result.code == 0, result.err
    assert result.err == ""
    assert_golden(name, result.json)


def assert_dry_run_sends_nothing(run: Run, server: httpx.Client, *argv: str) -> None:
    """Checked at the server: no event recorded; then the write itself records one (so the
    count would have seen it)."""
    before = event_count(server)
    result = run(*argv, "--dry-run")
    assert result.code == 0, result.err
    assert result.json["dryRun"] is True
    assert event_count(server) == before
    assert run(*argv).code == 0
    assert event_count(server) > before


def a_live_flag(server: httpx.Client, offset: int) -> str:
    """A live flag of the default project no other CLI test uses (the last ones by name)."""
    params = {"project": f"IS:{PROJECT}", "lifecycle": "IS:live", "sortBy": "name"}
    page = server.get("/api/admin/search/features", params={**params, "sortOrder": "desc"})
    return str(page.json()["features"][offset]["name"])


def newest_event(server: httpx.Client, name: str) -> dict:
    answer = server.get("/api/admin/search/events", params={"feature": f"IS:{name}", "limit": 1})
    return dict(answer.json()["events"][0])


def stage_and_environments(server: httpx.Client, name: str) -> tuple[str, dict[str, bool]]:
    params = {"query": name, "project": f"IS:{PROJECT}", "lifecycle": "IS_ANY_OF:archived,live"}
    row = next(
        f
        for f in server.get("/api/admin/search/features", params=params).json()["features"]
        if f["name"] == name
    )
    return row["lifecycle"]["stage"], {e["name"]: e["enabled"] for e in row["environments"]}


def add_failed_delivery(db_path: str, integration_id: int) -> str:
    """A failed delivery recorded on the server now (as an integration's own failure would
    be); its id."""
    with closing(sqlite3.connect(db_path)) as conn, conn:
        event = conn.execute("SELECT event FROM integration_events LIMIT 1").fetchone()[0]
        now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        cursor = conn.execute(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) VALUES (?, ?, 'failed', 'Webhook request failed with status code: 503',"
            " ?, '{}')",
            (integration_id, now, event),
        )
        return str(cursor.lastrowid)


def answer(err: str) -> dict:
    lines = [json.loads(line) for line in err.splitlines()]
    assert len(lines) == 1, err
    return lines[0]["answer"]


def collect_once(server: SandboxServer, *, clock: datetime | None = None) -> None:
    """One poll into the profile's default archive file, as `flagtui collect --once` would;
    `clock`: the time the collector believes it is (an old collection)."""

    async def poll() -> None:
        archive = Archive.open(sqlite_url(default_archive_path(server.url)), server.url)
        try:
            async with AdminClient(server.url, server.admin_token, profile="env") as client:
                now = (lambda: clock) if clock else (lambda: datetime.now(UTC))
                await Collector(client, archive, log=lambda _: None, clock=now).poll()
        finally:
            archive.close()

    asyncio.run(poll())
