"""httpx clients on the in-process sandbox app: `admin`, `viewer` and `anonymous`."""

from __future__ import annotations

import socket
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.applications import Starlette


def _client(app: Starlette, token: str | None) -> httpx.AsyncClient:
    headers = {"Authorization": token} if token else {}
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sandbox", headers=headers
    )


@pytest.fixture
async def admin(sandbox_app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(sandbox_app, sandbox_app.state.admin_token) as client:
        yield client


@pytest.fixture
async def viewer(sandbox_app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(sandbox_app, sandbox_app.state.viewer_token) as client:
        yield client


@pytest.fixture
async def anonymous(sandbox_app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(sandbox_app, None) as client:
        yield client


def assert_error(response: httpx.Response, status: int, name: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"id", "name", "message"}
    assert body["name"] == name
    assert body["id"] and body["message"]


async def events_of(client: httpx.AsyncClient, **filters: object) -> list[dict]:
    response = await client.post("/api/admin/events/search", json={"limit": 100, **filters})
    assert response.status_code == 200
    return response.json()["events"]


async def a_feature(client: httpx.AsyncClient, query: str = "") -> dict:
    response = await client.get(f"/api/admin/search/features?limit=1{query}")
    assert response.status_code == 200
    return response.json()["features"][0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(url: str, seconds: float) -> None:
    """Wait (bounded) until a sandbox started as a subprocess answers /health."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError("sandbox did not come up")
