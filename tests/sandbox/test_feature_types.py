"""PUT /api/admin/feature-types/:id/lifetime and the re-evaluation of potential staleness."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.sandbox.conftest import assert_error, events_of

LIFETIME = "/api/admin/feature-types/release/lifetime"


async def all_of_type(
    client: httpx.AsyncClient, type_: str, state: str = "IS_ANY_OF:active,stale,archived"
) -> list[dict]:
    found: list[dict] = []
    while True:
        page = await client.get(
            "/api/admin/search/features",
            params={
                "type": f"IS:{type_}",
                "limit": 100,
                "offset": len(found),
                "state": state,
            },
        )
        found.extend(page.json()["features"])
        if len(found) >= page.json()["total"]:
            return found


async def potentially_stale(client: httpx.AsyncClient, type_: str) -> set[str]:
    """The live flags of the type the search's filter finds: no record says it (real Unleash)."""
    return {f["name"] for f in await all_of_type(client, type_, "IS:potentially-stale")}


@pytest.mark.parametrize("days", [1, 30, 400, 700])
async def test_exactly_the_older_features_become_potentially_stale(
    admin: httpx.AsyncClient, days: int
) -> None:
    response = await admin.put(LIFETIME, json={"lifetimeDays": days})
    assert response.status_code == 200
    assert response.json()["lifetimeDays"] == days
    cutoff = datetime.now(UTC) - timedelta(days=days)
    features = await all_of_type(admin, "release")
    assert len(features) > 50
    older = {
        f["name"]
        for f in features
        if f["archivedAt"] is None
        and datetime.fromisoformat(f["createdAt"].replace("Z", "+00:00")) < cutoff
    }
    assert await potentially_stale(admin, "release") == older
    types = {t["id"]: t for t in (await admin.get("/api/admin/feature-types")).json()["types"]}
    assert types["release"]["lifetimeDays"] == days


@pytest.mark.parametrize("days", [0, None, 2147483647])
async def test_never_stale_lifetimes(admin: httpx.AsyncClient, days: int | None) -> None:
    response = await admin.put(LIFETIME, json={"lifetimeDays": days})
    assert response.status_code == 200
    assert response.json() == {**response.json(), "id": "release", "lifetimeDays": days}
    assert await potentially_stale(admin, "release") == set()


@pytest.mark.parametrize(
    "body",
    [
        {"lifetimeDays": 2147483648},
        {"lifetimeDays": -1},
        {"lifetimeDays": 1.5},
        {"lifetimeDays": "10"},
        {"lifetimeDays": True},
        {},
        [],
    ],
)
async def test_invalid_lifetimes_are_400(admin: httpx.AsyncClient, body: object) -> None:
    assert_error(await admin.put(LIFETIME, json=body), 400, "ValidationError")


async def test_unknown_type_is_404(admin: httpx.AsyncClient) -> None:
    response = await admin.put("/api/admin/feature-types/nope/lifetime", json={"lifetimeDays": 3})
    assert_error(response, 404, "NotFoundError")


async def test_lifetime_change_is_recorded_once(admin: httpx.AsyncClient) -> None:
    await admin.put(LIFETIME, json={"lifetimeDays": 12})
    await admin.put(LIFETIME, json={"lifetimeDays": 12})
    events = await events_of(admin, type="feature-type-updated")
    assert len(events) == 1
    assert events[0]["data"]["lifetimeDays"] == 12
    assert events[0]["preData"]["lifetimeDays"] == 40


async def test_a_whole_number_written_as_a_float_is_that_integer(admin: httpx.AsyncClient) -> None:
    response = await admin.put(
        LIFETIME, content=b'{"lifetimeDays": 7.0}', headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 200
    assert response.json()["lifetimeDays"] == 7
    assert '"lifetimeDays":7}' in response.text.replace(" ", "")
