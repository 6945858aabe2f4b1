"""The OpenAPI document describes what the sandbox really answers."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from flagtui.sandbox.openapi import openapi_document

DOC = openapi_document()
TYPES = {"string": str, "integer": int, "boolean": bool, "object": dict, "array": list}


def check(value: Any, schema: dict[str, Any], where: str = "$") -> None:
    if "$ref" in schema:
        schema = DOC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if value is None:
        assert schema.get("nullable"), f"{where} is null but not nullable"
        return
    expected = schema.get("type")
    if expected:
        ok = isinstance(value, TYPES[expected])
        assert ok and not (expected == "integer" and isinstance(value, bool)), f"{where}: {value!r}"
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r}"
    if isinstance(value, dict):
        for key in schema.get("required", []):
            assert key in value, f"{where}.{key} missing"
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                check(value[key], sub, f"{where}.{key}")
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key, item in value.items():
                check(item, extra, f"{where}.{key}")
    if isinstance(value, list):
        for i, item in enumerate(value):
            check(item, schema.get("items", {}), f"{where}[{i}]")


def response_schema(path: str, method: str, status: int) -> dict[str, Any]:
    response = DOC["paths"][path][method]["responses"][str(status)]
    return response["content"]["application/json"]["schema"]


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
    check(response.json(), response_schema(template, "get", 200))


async def test_features_and_writes_match_their_schema(admin: httpx.AsyncClient) -> None:
    items = (await admin.get("/api/admin/search/features?limit=100")).json()["features"]
    template = "/api/admin/projects/{projectId}/features/{featureName}"
    for item in items[:30]:
        url = f"/api/admin/projects/{item['project']}/features/{item['name']}"
        check((await admin.get(url)).json(), response_schema(template, "get", 200))
    patched = await admin.patch(url, json=[{"op": "replace", "path": "/stale", "value": True}])
    check(patched.json(), response_schema(template, "patch", 200))
    events = await admin.post("/api/admin/events/search", json={})
    check(events.json(), response_schema("/api/admin/events/search", "post", 200))
    error = await admin.get("/api/admin/projects/nope/features/nope")
    check(error.json(), response_schema(template, "get", 404))
