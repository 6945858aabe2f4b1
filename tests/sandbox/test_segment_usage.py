"""A segment's and a context field's usage (`GET /api/admin/segments`, `/api/admin/context`):
counted from the links the strategies keep, so the count follows every strategy write and a
flag's archive, and its cost does not grow with the strategies that use neither (issue 45: the
segments took 1.0-1.6 s on the large data set, where they scanned them all; the context fields
2.2 s on a loaded machine)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from flagtui.sandbox import create_app, read_tokens

FLAG = "segment-user"
FEATURE = f"/api/admin/projects/default/features/{FLAG}"
STRATEGIES = f"{FEATURE}/environments/production/strategies"


async def _usage(admin: httpx.AsyncClient) -> dict[int, tuple[int, int]]:
    answer = await admin.get("/api/admin/segments")
    assert answer.status_code == 200
    return {s["id"]: (s["usedInFeatures"], s["usedInProjects"]) for s in answer.json()["segments"]}


async def _field_usage(admin: httpx.AsyncClient) -> dict[str, tuple[int, int]]:
    answer = await admin.get("/api/admin/context")
    assert answer.status_code == 200
    return {f["name"]: (f["usedInFeatures"], f["usedInProjects"]) for f in answer.json()}


async def test_context_field_usage_follows_strategy_writes_and_the_flags_archive(
    admin: httpx.AsyncClient,
) -> None:
    before = await _field_usage(admin)
    created = await admin.post("/api/admin/projects/default/features", json={"name": FLAG})
    assert created.status_code == 201
    constraint = {"contextName": "tenantId", "operator": "IN", "values": ["acme"]}
    body = {"name": "default", "constraints": [constraint, {**constraint, "values": ["x"]}]}
    added = await admin.post(STRATEGIES, json=body)
    assert added.status_code == 200
    used = before["tenantId"][0]
    assert (await _field_usage(admin))["tenantId"][0] == used + 1
    assert (await admin.delete(FEATURE)).status_code == 202
    assert await _field_usage(admin) == before
    revived = await admin.post("/api/admin/projects/default/revive", json={"features": [FLAG]})
    assert revived.status_code == 200
    put = await admin.put(f"{STRATEGIES}/{added.json()['id']}", json={"name": "default"})
    assert put.status_code == 200
    assert await _field_usage(admin) == before


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


async def _steps_of_one_listing(app: Starlette, admin: httpx.AsyncClient, path: str) -> int:
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
        assert (await admin.get(path)).status_code == 200
    finally:
        conn.set_progress_handler(None, 0)
    return steps


@pytest.mark.parametrize("path", ["/api/admin/segments", "/api/admin/context"])
async def test_the_count_does_not_read_the_strategies_that_use_neither(
    sandbox_app: Starlette, admin: httpx.AsyncClient, path: str
) -> None:
    usage = (await admin.get(path)).json()
    before = await _steps_of_one_listing(sandbox_app, admin, path)
    with sqlite3.connect(sandbox_app.state.db_path) as conn:
        features = [r[0] for r in conn.execute("SELECT name FROM features LIMIT 500")]
        conn.executemany(
            "INSERT INTO strategies VALUES (?, ?, 'production', 'default', '', 0, 9, '{}', '[]',"
            " '[]', '[]')",
            [(f"extra-{i}", features[i % len(features)]) for i in range(30_000)],
        )
    after = await _steps_of_one_listing(sandbox_app, admin, path)
    assert (await admin.get(path)).json() == usage
    assert after <= before * 1.1, (before, after)  # the scan took 30,000 strategies longer


async def test_a_database_from_before_the_links_is_counted_all_the_same(
    sandbox_template: Path, tmp_path: Path
) -> None:
    fresh, older = tmp_path / "fresh.db", tmp_path / "older.db"
    shutil.copyfile(sandbox_template, fresh)
    shutil.copyfile(sandbox_template, older)
    with sqlite3.connect(older) as conn:
        made = (
            "SELECT type, name FROM sqlite_master WHERE (name LIKE 'strategy_segments%'"
            " OR name LIKE 'strategy_context_fields%')"
        )
        for kind, name in conn.execute(f"{made} AND type IN ('trigger', 'table')").fetchall():
            conn.execute(f"DROP {kind.upper()} {name}")
        assert conn.execute(made).fetchall() == []
        # As the first version of the links left it: the segments' table, its column `segment`.
        conn.execute(
            "CREATE TABLE strategy_segments (segment INTEGER NOT NULL, strategy TEXT NOT NULL,"
            " feature TEXT NOT NULL, project TEXT, live INTEGER NOT NULL)"
        )

    async def listed(path: Path) -> list[dict]:
        transport = httpx.ASGITransport(app=create_app(path))
        headers = {"Authorization": read_tokens(path).admin}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://sandbox", headers=headers
        ) as client:
            segments = await client.get("/api/admin/segments")
            fields = await client.get("/api/admin/context")
            assert (segments.status_code, fields.status_code) == (200, 200)
            return [*segments.json()["segments"], *fields.json()]

    usage = await listed(older)
    assert usage == await listed(fresh)
    assert any(s["usedInFeatures"] for s in usage[:3]) and any(f["usedInFeatures"] for f in usage)
