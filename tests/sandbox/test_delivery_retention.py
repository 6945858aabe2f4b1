"""The sandbox forgets deliveries like real Unleash (newest 100 of the last 2 hours across all
integrations, plus each integration's latest), unless told to keep them all."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import httpx
from starlette.applications import Starlette

from flagtui.sandbox import create_app, read_tokens

FLAG = "/api/admin/projects/default/features/admin-async-emails"


async def _all_deliveries(client: httpx.AsyncClient) -> dict[int, list[dict]]:
    addons = (await client.get("/api/admin/addons")).json()["addons"]
    found = {}
    for addon in addons:
        answer = await client.get(f"/api/admin/addons/{addon['id']}/events?limit=1000")
        found[addon["id"]] = answer.json()["integrationEvents"]
    return found


async def _patch_many(client: httpx.AsyncClient, times: int) -> None:
    for i in range(times):
        body = [{"op": "replace", "path": "/description", "value": f"retention {i}"}]
        assert (await client.patch(FLAG, json=body)).status_code == 200


def _client(app: Starlette, token: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(
        transport=transport, base_url="http://sandbox", headers={"Authorization": token}
    )


async def test_only_the_newest_100_recent_deliveries_and_each_latest_are_kept(sandbox_app):
    async with _client(sandbox_app, sandbox_app.state.admin_token) as admin:
        before = await _all_deliveries(admin)
        await _patch_many(admin, 120)
        after = await _all_deliveries(admin)
    recent = [d for page in after.values() for d in page if "retention" in str(d["event"])]
    assert len(recent) == 100  # the newest 100 across all integrations...
    newest_ids = sorted((int(d["id"]) for d in recent), reverse=True)
    assert newest_ids == list(range(newest_ids[0], newest_ids[0] - 100, -1))
    for addon_id, page in after.items():  # ...plus the latest of every integration
        if before[addon_id]:
            assert page, f"integration {addon_id} lost its latest delivery"
            assert int(page[0]["id"]) >= int(before[addon_id][0]["id"])
    # The template's history is days old (outside the 2 hours): at most the latest remains.
    old = [d for page in after.values() for d in page if "retention" not in str(d["event"])]
    assert len(old) <= len(after)


def _stored(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return int(conn.execute("SELECT count(*) FROM integration_events").fetchone()[0])


async def test_keep_all_deliveries_keeps_them(sandbox_db):
    before = _stored(sandbox_db)
    app = create_app(sandbox_db, keep_all_deliveries=True)
    async with _client(app, read_tokens(sandbox_db).admin) as admin:
        await _patch_many(admin, 120)
    assert _stored(sandbox_db) > before + 100
