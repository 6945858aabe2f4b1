"""The OpenAPI document describes what the sandbox really answers."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.schema_check import check


@pytest.mark.parametrize(
    ("template", "url"),
    [
        ("/api/admin/ui-config", "/api/admin/ui-config"),
        ("/api/admin/projects", "/api/admin/projects"),
        ("/api/admin/projects/{projectId}/features", "/api/admin/projects/payments/features"),
        ("/api/admin/search/features", "/api/admin/search/features?state=IS:archived"),
        ("/api/admin/search/features", "/api/admin/search/features?limit=100"),
        ("/api/admin/environments/project/{projectId}", "/api/admin/environments/project/growth"),
        ("/api/admin/projects/{projectId}/access", "/api/admin/projects/payments/access"),
        ("/api/admin/feature-types", "/api/admin/feature-types"),
        ("/api/admin/user-admin", "/api/admin/user-admin"),
        ("/api/admin/user-admin/search", "/api/admin/user-admin/search?q=ac"),
        ("/api/admin/roles", "/api/admin/roles"),
        ("/api/admin/groups", "/api/admin/groups"),
        (
            "/api/admin/projects/{projectId}/change-requests",
            "/api/admin/projects/payments/change-requests",
        ),
        ("/api/admin/addons", "/api/admin/addons"),
        ("/api/admin/addons/{id}/events", "/api/admin/addons/3/events?limit=100"),
        ("/api/admin/search/events", "/api/admin/search/events?limit=100"),
    ],
)
async def test_reads_match_their_schema(admin: httpx.AsyncClient, template: str, url: str) -> None:
    response = await admin.get(url)
    assert response.status_code == 200
    check(response, template, "GET")


async def test_features_and_writes_match_their_schema(admin: httpx.AsyncClient) -> None:
    items = (await admin.get("/api/admin/search/features?limit=100")).json()["features"]
    template = "/api/admin/projects/{projectId}/features/{featureName}"
    for item in items[:30]:
        url = f"/api/admin/projects/{item['project']}/features/{item['name']}"
        check(await admin.get(url), template, "GET")
    patched = await admin.patch(url, json=[{"op": "replace", "path": "/stale", "value": True}])
    assert patched.status_code == 200
    check(patched, template, "PATCH")
    events = await admin.post("/api/admin/events/search", json={})
    assert events.status_code == 200
    check(events, "/api/admin/events/search", "POST")
    error = await admin.get("/api/admin/projects/nope/features/nope")
    assert error.status_code == 404
    check(error, template, "GET")
