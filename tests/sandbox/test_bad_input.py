"""Bad input on every operation: a 4xx with the contract's error body, and nothing changes.

Each case is sent through the ASGI app; the test compares a checksum of every table's rows
before and after, so a request that fails half-way (or "succeeds" at doing nothing useful)
would show.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from starlette.applications import Starlette

FEATURE = "/api/admin/projects/{project}/features/{feature}"
SQL = "'; DROP TABLE features; --"
NAMES = [
    SQL,
    "1 OR 1=1",
    "🚀🔥-flag",
    "\u202eRTL-override\u202c",
    "עברית-פיצ'ר",
    "nul\u0000byte",
    "%",
    "_",
    "a" * 5000,
]
HUGE = "99999999999999999999999999999999"


def checksum(db: Path) -> str:
    """A digest of every row of every table (rowid order), read through its own connection."""
    digest = hashlib.sha256()
    conn = sqlite3.connect(db)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        for table in tables:
            digest.update(table.encode())
            for row in conn.execute(f"SELECT * FROM {table} ORDER BY rowid"):
                digest.update(repr(row).encode())
    finally:
        conn.close()
    return digest.hexdigest()


@pytest.fixture
def db(sandbox_app: Starlette) -> Path:
    return Path(sandbox_app.state.db_path)


@pytest.fixture
async def unchanged(db: Path, admin: httpx.AsyncClient) -> AsyncIterator[None]:
    """Asserts after the test that the database holds exactly what it held before."""
    before = checksum(db)
    yield
    assert checksum(db) == before, "a rejected request changed the database"


def assert_rejected(response: httpx.Response, *statuses: int) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    if statuses:
        assert response.status_code in statuses, (response.status_code, response.text[:300])
    body = response.json()
    assert set(body) == {"id", "name", "message"}, body
    assert all(isinstance(body[k], str) and body[k] for k in body), body
    assert "Traceback" not in response.text


def json_headers() -> dict[str, str]:
    return {"Content-Type": "application/json"}


async def send(client: httpx.AsyncClient, method: str, path: str, body: Any) -> httpx.Response:
    """Send body as JSON, `null` included (httpx's json=None sends no body at all)."""
    return await client.request(method, path, content=json.dumps(body), headers=json_headers())


BODY_WRITES = [
    ("PATCH", "/api/admin/projects/payments/features/payments-checkout-redesign"),
    ("POST", "/api/admin/projects/payments/access"),
    ("PUT", "/api/admin/feature-types/release/lifetime"),
    ("POST", "/api/admin/events/search"),
]


@pytest.fixture
async def a_feature_path(admin: httpx.AsyncClient) -> str:
    item = (await admin.get("/api/admin/search/features?limit=1")).json()["features"][0]
    return FEATURE.format(project=item["project"], feature=item["name"])


# Raw bodies ---------------------------------------------------------------------------------


async def _chunks(total: int) -> AsyncIterator[bytes]:
    chunk = b"x" * 65536
    sent = 0
    while sent < total:
        yield chunk
        sent += len(chunk)


@pytest.mark.parametrize(("method", "path"), BODY_WRITES)
@pytest.mark.usefixtures("unchanged")
async def test_ten_megabyte_bodies_are_413(
    admin: httpx.AsyncClient, method: str, path: str
) -> None:
    big = b'{"x": "' + b"y" * 10_000_000 + b'"}'
    response = await admin.request(method, path, content=big, headers=json_headers())
    assert_rejected(response, 413)
    assert response.json()["name"] == "PayloadTooLargeError"
    # Without a Content-Length (chunked): counted while streaming.
    response = await admin.request(
        method, path, content=_chunks(10_000_000), headers=json_headers()
    )
    assert_rejected(response, 413)


MALFORMED = [
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deep-array"),
    pytest.param(b'{"a":' * 50_000 + b"1" + b"}" * 50_000, id="deep-object"),
    pytest.param(b"[" * 100_000, id="deep-unclosed"),
    pytest.param(b"\xff\xfe\xfd\xfc", id="not-utf8"),
    pytest.param(b'{"description": "caf\xe9"}', id="latin1-in-json"),
    pytest.param(b'[{"op":"replace","path":"/description","value":"\\ud800"}]', id="surrogate"),
    pytest.param(b'{"lifetimeDays": NaN}', id="nan"),
    pytest.param(b'{"lifetimeDays": Infinity}', id="infinity"),
    pytest.param(b'{"lifetimeDays": 1e400}', id="float-overflow"),
    pytest.param(b'{"limit": 1' + b"0" * 5000 + b"}", id="5000-digit-int"),
    pytest.param(b"", id="empty"),
    pytest.param(b"   \n", id="blank"),
    pytest.param(b"{", id="truncated"),
    pytest.param(b"{} {}", id="two-documents"),
    pytest.param(b"\x00", id="nul"),
]


@pytest.mark.parametrize(("method", "path"), BODY_WRITES)
@pytest.mark.usefixtures("unchanged")
async def test_malformed_bodies_are_400(admin: httpx.AsyncClient, method: str, path: str) -> None:
    for case in MALFORMED:
        response = await admin.request(method, path, content=case.values[0], headers=json_headers())
        assert_rejected(response, 400)
        assert response.json()["name"] == "ValidationError", case.id


# Wrong JSON types on every write ------------------------------------------------------------

WRONG_PATCHES: list[Any] = [
    {},
    None,
    "replace",
    42,
    True,
    [1],
    [None],
    [[]],
    [{}],
    [{"op": 1, "path": "/stale", "value": True}],
    [{"op": "REPLACE", "path": "/stale", "value": True}],
    [{"op": "test", "path": "/stale", "value": False}],
    [{"op": "replace", "path": 1, "value": True}],
    [{"op": "replace", "path": None, "value": True}],
    [{"op": "replace", "path": "/stale"}],
    [{"op": "replace", "path": "/stale", "value": "true"}],
    [{"op": "replace", "path": "/stale", "value": 1}],
    [{"op": "replace", "path": "/stale", "value": None}],
    [{"op": "replace", "path": "/impressionData", "value": []}],
    [{"op": "replace", "path": "/archived", "value": "yes"}],
    [{"op": "replace", "path": "/description", "value": 123}],
    [{"op": "replace", "path": "/description", "value": {"text": "x"}}],
    [{"op": "replace", "path": "/description", "value": ["x"]}],
    [{"op": "replace", "path": "/type", "value": 5}],
    [{"op": "replace", "path": "/type", "value": None}],
    # any string is stored as the type, as on real Unleash (the client checks the server's list)
    [{"op": "replace", "path": "/name", "value": "renamed"}],
    [{"op": "replace", "path": "/project", "value": "default"}],
    [{"op": "replace", "path": "/createdAt", "value": "2020-01-01T00:00:00.000Z"}],
    [{"op": "replace", "path": "", "value": {}}],
    [{"op": "replace", "path": "", "value": []}],
    [{"op": "replace", "path": "/", "value": 1}],
    [{"op": "replace", "path": "stale", "value": True}],
    [{"op": "replace", "path": "/environments/99/enabled", "value": True}],
    [{"op": "replace", "path": "/nothing/deeper", "value": True}],
    [{"op": "add", "path": "/extra", "value": 1}],
    [{"op": "remove", "path": "/name"}],
    [{"op": "remove", "path": "/nothing"}],
    [{"op": "move", "path": "/description", "from": 5}],
    [{"op": "move", "path": "/description"}],
    [{"op": "move", "path": "/description", "from": "/nothing"}],
    [{"op": "copy", "path": "/stale", "from": "/environments"}],
    [
        {"op": "replace", "path": "/description", "value": "first half"},
        {"op": "replace", "path": "/stale", "value": "not a boolean"},
    ],
    [{"op": "replace", "path": "/stale", "value": True}, 7],
]


@pytest.mark.usefixtures("unchanged")
async def test_patch_with_wrong_types_is_400(admin: httpx.AsyncClient, a_feature_path: str) -> None:
    for body in WRONG_PATCHES:
        assert_rejected(await send(admin, "PATCH", a_feature_path, body), 400)


WRONG_ACCESS: list[Any] = [
    None,
    [],
    "roles",
    {},
    {"roles": [4]},
    {"roles": None, "groups": [], "users": []},
    {"roles": "4", "groups": [], "users": []},
    {"roles": 4, "groups": [], "users": []},
    {"roles": [4.0], "groups": [], "users": []},
    {"roles": [True], "groups": [], "users": []},
    {"roles": ["4"], "groups": [], "users": []},
    {"roles": [-1], "groups": [], "users": []},
    {"roles": [2**63], "groups": [], "users": []},
    {"roles": [10**30], "groups": [], "users": []},
    {"roles": [[4]], "groups": [], "users": []},
    {"roles": [4], "groups": {"1": 1}, "users": []},
    {"roles": [4], "groups": [], "users": [None]},
    {"roles": [4], "groups": [], "users": [99999]},
    {"roles": [99999], "groups": [], "users": [1]},
    {"roles": [1], "groups": [], "users": [1]},
]


@pytest.mark.usefixtures("unchanged")
async def test_access_with_wrong_types_is_400(admin: httpx.AsyncClient) -> None:
    for body in WRONG_ACCESS:
        response = await send(admin, "POST", "/api/admin/projects/payments/access", body)
        assert_rejected(response, 400)


WRONG_LIFETIMES: list[Any] = [
    None,
    [],
    [5],
    5,
    "5",
    {},
    {"lifetime": 5},
    {"lifetimeDays": "5"},
    {"lifetimeDays": 5.5},
    {"lifetimeDays": True},
    {"lifetimeDays": False},
    {"lifetimeDays": -1},
    {"lifetimeDays": -(2**63)},
    {"lifetimeDays": 2147483648},
    {"lifetimeDays": 10**30},
    {"lifetimeDays": [5]},
    {"lifetimeDays": {"days": 5}},
]


@pytest.mark.usefixtures("unchanged")
async def test_lifetime_with_wrong_types_is_400(admin: httpx.AsyncClient) -> None:
    for body in WRONG_LIFETIMES:
        response = await send(admin, "PUT", "/api/admin/feature-types/release/lifetime", body)
        assert_rejected(response, 400)


WRONG_SEARCHES: list[Any] = [
    None,
    [],
    "feature-created",
    1,
    {"limit": "10"},
    {"limit": 0},
    {"limit": -1},
    {"limit": 101},
    {"limit": 10**30},
    {"limit": -(10**30)},
    {"limit": 10.5},
    {"limit": True},
    {"limit": None},
    {"offset": -1},
    {"offset": "0"},
    {"offset": 10**30},
    {"offset": 1.5},
    {"offset": False},
    {"type": 5},
    {"type": None},
    {"type": "FEATURE-CREATED"},
    {"type": SQL},
    {"type": ["feature-created"]},
    {"project": 5},
    {"project": ["default"]},
    {"feature": {"name": "x"}},
    {"query": 5},
    {"query": ["x"]},
]


@pytest.mark.usefixtures("unchanged")
async def test_event_search_with_wrong_types_is_400(admin: httpx.AsyncClient) -> None:
    for body in WRONG_SEARCHES:
        assert_rejected(await send(admin, "POST", "/api/admin/events/search", body), 400)


# Paging in query strings ---------------------------------------------------------------------

PAGED = [
    "/api/admin/search/features",
    "/api/admin/search/events",
]
BAD_PAGING = [
    "limit=-1",
    "limit=-99999999999999",
    f"limit={HUGE}",
    "limit=1e3",
    "limit=0x10",
    "limit=%EF%BC%91",  # a full-width digit one
    "limit=%00",
    "limit=%FF",
    "limit=1.0",
    "limit= 5",
    "offset=-1",
    f"offset={HUGE}",
    "offset=2147483648",
    f"offset=-{HUGE}",
    "offset=abc",
    "offset=%F0%9F%9A%80",
]


@pytest.mark.usefixtures("unchanged")
async def test_bad_paging_is_400(admin: httpx.AsyncClient) -> None:
    for path in PAGED:
        for query in BAD_PAGING:
            response = await admin.get(f"{path}?{query}")
            assert_rejected(response, 400)


@pytest.mark.usefixtures("unchanged")
async def test_integration_events_take_any_paging(admin: httpx.AsyncClient) -> None:
    """Real Unleash falls back to its defaults instead of refusing (6.10 to 8.2)."""
    for query in BAD_PAGING:
        response = await admin.get(f"/api/admin/addons/3/events?{query}")
        assert response.status_code == 200, (query, response.text[:200])


async def test_huge_limits_in_range_fall_back(admin: httpx.AsyncClient) -> None:
    for path in [*PAGED, "/api/admin/addons/3/events"]:
        for query in ("limit=2147483647", "limit=0", "offset=2147483647"):
            response = await admin.get(f"{path}?{query}")
            assert response.status_code == 200, (query, response.text[:200])


# Hostile names in paths, queries and bodies -------------------------------------------------


@pytest.mark.usefixtures("unchanged")
async def test_hostile_names_on_every_write(admin: httpx.AsyncClient) -> None:
    for name in NAMES:
        await _hostile_writes(admin, name)


async def _hostile_writes(admin: httpx.AsyncClient, name: str) -> None:
    n = quote(name, safe="")
    stale = [{"op": "replace", "path": "/stale", "value": True}]
    access = {"roles": [4], "groups": [], "users": [1]}
    cases = [
        ("PATCH", f"/api/admin/projects/{n}/features/{n}", stale, (404,)),
        ("PATCH", f"/api/admin/projects/payments/features/{n}", stale, (404,)),
        ("DELETE", f"/api/admin/projects/{n}/environments/{n}", None, (400,)),
        ("DELETE", f"/api/admin/projects/payments/environments/{n}", None, (400,)),
        ("POST", f"/api/admin/projects/{n}/access", access, (404,)),
        ("POST", f"/api/admin/projects/{n}/features/{n}/lifecycle/uncomplete", None, (404,)),
        ("PUT", f"/api/admin/feature-types/{n}/lifetime", {"lifetimeDays": 3}, (404,)),
        ("DELETE", f"/api/admin/projects/{n}/change-requests/{n}", None, (404,)),
        ("DELETE", f"/api/admin/projects/payments/change-requests/{n}", None, (404,)),
    ]
    for method, path, body, statuses in cases:
        kwargs = {"json": body} if body is not None else {}
        response = await admin.request(method, path, **kwargs)
        assert_rejected(response, *statuses)


@pytest.mark.usefixtures("unchanged")
async def test_hostile_names_on_reads(admin: httpx.AsyncClient) -> None:
    for name in NAMES:
        await _hostile_reads(admin, name)


async def _hostile_reads(admin: httpx.AsyncClient, name: str) -> None:
    n = quote(name, safe="")
    for path in (
        f"/api/admin/projects/{n}/features/{n}",
        f"/api/admin/projects/{n}/features",
        f"/api/admin/environments/project/{n}",
        f"/api/admin/projects/{n}/access",
        f"/api/admin/projects/{n}/change-requests",
        f"/api/admin/projects/{n}/change-requests/{n}",
        f"/api/admin/addons/{n}/events",
    ):
        assert_rejected(await admin.get(path), 404)
    ok = [
        await admin.get("/api/admin/search/features", params={"query": name}),
        await admin.get("/api/admin/search/events", params={"query": name}),
        await admin.get("/api/admin/search/events", params={"feature": f"IS:{name}"}),
        await admin.get("/api/admin/user-admin/search", params={"q": name + name}),
        await admin.post(
            "/api/admin/events/search", json={"query": name, "feature": name, "project": name}
        ),
    ]
    for response in ok:
        assert response.status_code == 200, response.text[:300]
    assert ok[-1].json()["events"] == []


@pytest.mark.usefixtures("unchanged")
async def test_invalid_utf8_in_paths_and_queries(admin: httpx.AsyncClient) -> None:
    for path in (
        "/api/admin/projects/%FF%FE/features/%C0%AF",
        "/api/admin/addons/%FF/events",
        "/api/admin/feature-types/%ED%A0%80/lifetime",
    ):
        response = await admin.request("PUT" if "lifetime" in path else "GET", path)
        assert 400 <= response.status_code < 500, response.text[:300]
    for path in (
        "/api/admin/search/features?query=%FF%FE",
        "/api/admin/search/events?query=%ED%A0%80",
        "/api/admin/user-admin/search?q=%FF%FE%FD",
    ):
        response = await admin.get(path)
        assert response.status_code < 500, response.text[:300]


async def test_unicode_values_round_trip(
    admin: httpx.AsyncClient, a_feature_path: str, db: Path
) -> None:
    """Not bad input: odd but valid text is stored and read back exactly."""
    for text in ("🚀 \u202eevil\u202c עברית", "nul\u0000inside", SQL, "x" * 100_000):
        patch = [{"op": "replace", "path": "/description", "value": text}]
        response = await admin.patch(a_feature_path, json=patch)
        assert response.status_code == 200, response.text[:300]
        assert (await admin.get(a_feature_path)).json()["description"] == text
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM features").fetchone()[0] == 325  # 5 hostile
    finally:
        conn.close()
