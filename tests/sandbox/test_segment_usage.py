"""A segment's usage (`GET /api/admin/segments`): counted from the links the strategies keep, so
the count follows every strategy write and a flag's archive, and its cost does not grow with the
strategies that use no segment (issue 45: 1.0-1.6 s on the large data set, where it scanned them
all)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import httpx
from starlette.applications import Starlette

from flagtui.sandbox import create_app, read_tokens

FLAG = "segment-user"
FEATURE = f"/api/admin/projects/default/features/{FLAG}"
STRATEGIES = f"{FEATURE}/environments/production/strategies"


async def _usage(admin: httpx.AsyncClient) -> dict[int, tuple[int, int]]:
    answer = await admin.get("/api/admin/segments")
    assert answer.status_code == 200
    return {s["id"]: (s["usedInFeatures"], s["usedInProjects"]) for s in answer.json()["segments"]}


async def test_usage_follows_strategy_writes_and_the_flags_archive(
    admin: httpx.AsyncClient,
) -> None:
    before = await _usage(admin)
    segment = min(before)
    created = await admin.post("/api/admin/projects/default/features", json={"name": FLAG})
    assert created.status_code == 201
    added = await admin.post(STRATEGIES, json={"name": "default", "segments": [segment]})
    assert added.status_code == 200
    second = await admin.post(STRATEGIES, json={"name": "default", "segments": [segment]})
    assert second.status_code == 200
    used, projects = before[segment]
    assert (await _usage(admin))[segment][0] == used + 1  # one flag, however many strategies

    assert (await admin.delete(FEATURE)).status_code == 202
    assert (await _usage(admin))[segment][0] == used  # archived flags do not count
    revived = await admin.post("/api/admin/projects/default/revive", json={"features": [FLAG]})
    assert revived.status_code == 200
    assert (await _usage(admin))[segment][0] == used + 1

    for strategy in (added.json(), second.json()):
        body = {"name": "default", "segments": []}
        put = await admin.put(f"{STRATEGIES}/{strategy['id']}", json=body)
        assert put.status_code == 200
    assert (await _usage(admin))[segment] == (used, projects)
    again = await admin.put(
        f"{STRATEGIES}/{second.json()['id']}", json={"name": "default", "segments": [segment]}
    )
    assert again.status_code == 200
    assert (await _usage(admin))[segment][0] == used + 1
    assert (await admin.delete(f"{STRATEGIES}/{second.json()['id']}")).status_code == 200
    assert await _usage(admin) == before


async def _steps_of_one_listing(app: Starlette, admin: httpx.AsyncClient) -> int:
    """SQLite's virtual machine steps (in hundreds) of one segment listing, counted on the
    connection its handler uses (ASGITransport runs it on this thread)."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0  # go on

    conn = app.state.sandbox.db.connection()
    conn.set_progress_handler(count, 100)
    try:
        assert (await admin.get("/api/admin/segments")).status_code == 200
    finally:
        conn.set_progress_handler(None, 0)
    return steps


async def test_the_count_does_not_read_the_strategies_without_segments(
    sandbox_app: Starlette, admin: httpx.AsyncClient
) -> None:
    usage = await _usage(admin)
    before = await _steps_of_one_listing(sandbox_app, admin)
    with sqlite3.connect(sandbox_app.state.db_path) as conn:
        features = [r[0] for r in conn.execute("SELECT name FROM features LIMIT 500")]
        conn.executemany(
            "INSERT INTO strategies VALUES (?, ?, 'production', 'default', '', 0, 9, '{}', '[]',"
            " '[]', '[]')",
            [(f"extra-{i}", features[i % len(features)]) for i in range(30_000)],
        )
    after = await _steps_of_one_listing(sandbox_app, admin)
    assert await _usage(admin) == usage
    assert after <= before * 1.1, (before, after)  # the scan took 30,000 strategies longer


async def test_a_database_from_before_the_links_is_counted_all_the_same(
    sandbox_template: Path, tmp_path: Path
) -> None:
    fresh, older = tmp_path / "fresh.db", tmp_path / "older.db"
    shutil.copyfile(sandbox_template, fresh)
    shutil.copyfile(sandbox_template, older)
    with sqlite3.connect(older) as conn:
        made = "SELECT type, name FROM sqlite_master WHERE name LIKE 'strategy_segments%'"
        for kind, name in conn.execute(f"{made} AND type IN ('trigger', 'table')").fetchall():
            conn.execute(f"DROP {kind.upper()} {name}")
        assert conn.execute(made).fetchall() == []

    async def listed(path: Path) -> list[dict]:
        transport = httpx.ASGITransport(app=create_app(path))
        headers = {"Authorization": read_tokens(path).admin}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://sandbox", headers=headers
        ) as client:
            answer = await client.get("/api/admin/segments")
            assert answer.status_code == 200
            segments: list[dict] = answer.json()["segments"]
            return segments

    segments = await listed(older)
    assert segments == await listed(fresh)
    assert any(s["usedInFeatures"] for s in segments)
