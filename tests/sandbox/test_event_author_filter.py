"""GET /search/events filters by author as real Unleash does: `createdBy` holds user ids (its
admin token acts as -42); a name is refused (real Unleash answers 500 for one)."""

from __future__ import annotations

import httpx


async def test_created_by_takes_user_ids(admin: httpx.AsyncClient) -> None:
    newest = (await admin.get("/api/admin/search/events?limit=50")).json()["events"]
    author = next(e for e in newest if e["createdByUserId"])
    uid = author["createdByUserId"]
    body = (await admin.get(f"/api/admin/search/events?createdBy=IS:{uid}&limit=50")).json()
    assert body["events"] and {e["createdByUserId"] for e in body["events"]} == {uid}
    both = (await admin.get(f"/api/admin/search/events?createdBy=IS_ANY_OF:{uid},-42")).json()
    assert both["total"] >= body["total"]
    none = (await admin.get("/api/admin/search/events?createdBy=IS:-42")).json()
    assert none == {"events": [], "total": 0}  # no sandbox user is the admin token's -42


async def test_created_by_refuses_a_name(admin: httpx.AsyncClient) -> None:
    answer = await admin.get("/api/admin/search/events?createdBy=IS:admin")
    assert answer.status_code == 400
    assert '"createdBy" must be user ids' in answer.json()["message"]
