"""Authentication, permissions, content types and hostile input on every operation."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.conftest import assert_error

WRITES = [
    ("PATCH", "/api/admin/projects/payments/features/x", []),
    ("DELETE", "/api/admin/projects/payments/environments/qa", None),
    ("POST", "/api/admin/projects/payments/environments", {"environment": "qa"}),
    ("POST", "/api/admin/projects/payments/features/x/environments/qa/on", None),
    ("POST", "/api/admin/projects/payments/features/x/environments/qa/off", None),
    ("POST", "/api/admin/projects/payments/access", {"roles": [], "groups": [], "users": []}),
    ("POST", "/api/admin/projects/payments/features/x/lifecycle/uncomplete", None),
    ("PUT", "/api/admin/feature-types/release/lifetime", {"lifetimeDays": 5}),
    ("DELETE", "/api/admin/projects/payments/change-requests/1", None),
]
READS = [
    "/api/admin/user-admin/search?q=ad",
    "/api/admin/ui-config",
    "/api/admin/projects",
    "/api/admin/projects/payments/features",
    "/api/admin/search/features",
    "/api/admin/environments/project/payments",
    "/api/admin/feature-types",
    "/api/admin/addons",
    "/api/admin/search/events",
    "/api/admin/projects/payments/change-requests",
    "/api/admin/roles",
    "/api/admin/groups",
    "/api/admin/projects/payments/access",
]
# Real Unleash requires the ADMIN permission for these reads (the contract's 403 on endpoint 2).
ADMIN_READS = ["/api/admin/addons/1/events", "/api/admin/user-admin"]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
async def test_writes_need_a_token_and_write_permission(
    anonymous: httpx.AsyncClient, viewer: httpx.AsyncClient, method: str, path: str, body: object
) -> None:
    kwargs = {"json": body} if body is not None else {}
    assert_error(await anonymous.request(method, path, **kwargs), 401, "AuthenticationRequired")
    bad = await anonymous.request(method, path, headers={"Authorization": "*:*.nope"}, **kwargs)
    assert_error(bad, 401, "AuthenticationRequired")
    assert_error(await viewer.request(method, path, **kwargs), 403, "NoAccessError")


@pytest.mark.parametrize("path", READS)
async def test_reads_need_a_token_and_the_viewer_may_read(
    anonymous: httpx.AsyncClient, viewer: httpx.AsyncClient, path: str
) -> None:
    assert_error(await anonymous.get(path), 401, "AuthenticationRequired")
    assert (await viewer.get(path)).status_code == 200


@pytest.mark.parametrize("path", ADMIN_READS)
async def test_admin_reads_are_no_access_for_the_viewer(
    anonymous: httpx.AsyncClient,
    viewer: httpx.AsyncClient,
    admin: httpx.AsyncClient,
    path: str,
) -> None:
    assert_error(await anonymous.get(path), 401, "AuthenticationRequired")
    assert_error(await viewer.get(path), 403, "NoAccessError")
    assert (await admin.get(path)).status_code == 200


async def test_unknown_addon_is_still_403_for_the_viewer(viewer: httpx.AsyncClient) -> None:
    assert_error(await viewer.get("/api/admin/addons/999/events"), 403, "NoAccessError")


async def test_bearer_prefix_is_accepted(anonymous: httpx.AsyncClient, sandbox_app) -> None:
    token = sandbox_app.state.admin_token
    response = await anonymous.get(
        "/api/admin/projects", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200


async def test_health_and_openapi_need_no_token(anonymous: httpx.AsyncClient) -> None:
    assert (await anonymous.get("/health")).json() == {"health": "GOOD"}
    assert (await anonymous.get("/docs/openapi.json")).json()["openapi"].startswith("3.1")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PATCH", "/api/admin/projects/payments/features/x"),
        ("POST", "/api/admin/projects/payments/access"),
        ("PUT", "/api/admin/feature-types/release/lifetime"),
        ("POST", "/api/admin/events/search"),
    ],
)
@pytest.mark.parametrize("content_type", ["text/plain", "application/json-patch+json", None])
async def test_a_body_that_is_not_json_is_415(
    admin: httpx.AsyncClient, method: str, path: str, content_type: str | None
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    response = await admin.request(method, path, content=b"{}", headers=headers)
    assert_error(response, 415, "ContentTypeerror")


def assert_path_not_available(response: httpx.Response, path: str) -> None:
    """Real Unleash's answer (6.10 to 8.2), `details` included."""
    assert response.status_code == 404, response.text
    body = response.json()
    message = f"The path you were looking for ({path}) is not available."
    assert body["name"] == "NotFoundError"
    assert body["message"] == message
    assert body["details"] == [{"message": message}]


async def test_unknown_path_is_404(admin: httpx.AsyncClient) -> None:
    assert_path_not_available(await admin.get("/api/admin/nothing-here"), "/api/admin/nothing-here")


async def test_an_unknown_path_asks_for_a_token_first(anonymous: httpx.AsyncClient) -> None:
    """Real Unleash (6.10 to 8.2) answers 401 before it says a path is not available."""
    assert_error(await anonymous.get("/api/admin/nothing-here"), 401, "AuthenticationRequired")
    deleted = await anonymous.delete("/api/admin/feature-types")
    assert_error(deleted, 401, "AuthenticationRequired")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("DELETE", "/api/admin/feature-types"),
        ("GET", "/api/admin/projects/payments/features/x/lifecycle/uncomplete"),
        ("POST", "/api/admin/addons/1/events"),
        ("POST", "/api/admin/feature-types/release/lifetime"),
    ],
)
async def test_a_method_on_another_routes_path_is_404_not_405(
    admin: httpx.AsyncClient, method: str, path: str
) -> None:
    kwargs = {"json": {}} if method == "POST" else {}
    assert_path_not_available(await admin.request(method, path, **kwargs), path)


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b"\xff\xfe\xfd not utf-8",
        b'{"type": "\\ud800"}',
        b"NaN",
        b'{"limit": 1' + b"0" * 5000 + b"}",
        b"",
        b"{",
    ],
)
async def test_malformed_bodies_are_400(admin: httpx.AsyncClient, raw: bytes) -> None:
    response = await admin.post(
        "/api/admin/events/search", content=raw, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "ValidationError")


async def test_a_body_over_one_megabyte_is_413_and_changes_nothing(
    admin: httpx.AsyncClient,
) -> None:
    before = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    big = b'[{"op": "replace", "path": "/description", "value": "' + b"x" * 10_000_000 + b'"}]'
    response = await admin.patch(
        "/api/admin/projects/payments/features/x",
        content=big,
        headers={"Content-Type": "application/json"},
    )
    assert_error(response, 413, "PayloadTooLargeError")
    after = (await admin.post("/api/admin/events/search", json={})).json()["totalEvents"]
    assert after == before


@pytest.mark.parametrize(
    "name", ["'; DROP TABLE features; --", "ünïcødé-flag-🚀", "%", "_", "a\\b", "\x00"]
)
async def test_hostile_names_are_plain_not_found(admin: httpx.AsyncClient, name: str) -> None:
    from urllib.parse import quote

    response = await admin.get(f"/api/admin/projects/payments/features/{quote(name)}")
    assert_error(response, 404, "NotFoundError")
    search = await admin.get("/api/admin/search/features", params={"query": name})
    assert search.status_code == 200
    events = await admin.post("/api/admin/events/search", json={"query": name, "feature": name})
    assert events.status_code == 200
    assert (await admin.get("/api/admin/projects")).status_code == 200


@pytest.mark.parametrize(
    "query",
    ["limit=-1", "limit=abc", "offset=-5", "offset=99999999999999999999999", "limit=1.5"],
)
async def test_bad_paging_is_400(admin: httpx.AsyncClient, query: str) -> None:
    for path in ("/api/admin/search/features", "/api/admin/search/events"):
        assert_error(await admin.get(f"{path}?{query}"), 400, "ValidationError")


async def test_bad_filters_are_400(admin: httpx.AsyncClient) -> None:
    assert_error(
        await admin.get("/api/admin/search/features?state=IS:sleepy"), 400, "ValidationError"
    )
    assert_error(await admin.get("/api/admin/search/features?type=release"), 400, "ValidationError")
    assert_error(
        await admin.get("/api/admin/search/events?from=IS:yesterday"), 400, "ValidationError"
    )
