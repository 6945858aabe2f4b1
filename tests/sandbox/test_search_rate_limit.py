"""The feature search's rate limit, as real Unleash 8.2.0 keeps it (`flagtui/sandbox/rate_limit`):
15 a minute per client IP unless SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE says otherwise, the
RateLimit headers on every answer, a plain-text 429 with Retry-After past it. The suite's
sandboxes allow many more (tests/conftest.py); these give theirs the limit they test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from flagtui.sandbox import create_app, read_tokens
from flagtui.sandbox.rate_limit import LIMIT_ENV, SearchLimit

SEARCH = "/api/admin/search/features?limit=1"


def _client(db: Path, ip: str = "127.0.0.1", **app_kwargs: object) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_app(db, **app_kwargs), client=(ip, 50000))  # type: ignore[arg-type]
    token = read_tokens(db).admin
    return httpx.AsyncClient(
        transport=transport, base_url="http://sandbox", headers={"Authorization": token}
    )


@pytest.fixture
async def unleash_default(
    sandbox_db: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[httpx.AsyncClient]:
    """A sandbox configured as real Unleash is by default (no limit set anywhere)."""
    monkeypatch.delenv(LIMIT_ENV, raising=False)
    async with _client(sandbox_db) as client:
        yield client


async def test_fifteen_searches_a_minute_then_a_plain_429(unleash_default):
    remaining = []
    for _ in range(15):
        answer = await unleash_default.get(SEARCH)
        assert answer.status_code == 200
        assert answer.headers["RateLimit-Policy"] == "15;w=60"
        assert answer.headers["RateLimit-Limit"] == "15"
        assert 0 < int(answer.headers["RateLimit-Reset"]) <= 60
        assert "Retry-After" not in answer.headers
        remaining.append(int(answer.headers["RateLimit-Remaining"]))
    assert remaining == list(range(14, -1, -1))
    refused = await unleash_default.get(SEARCH)
    assert refused.status_code == 429
    assert refused.text == "Too many requests, please try again later."
    assert refused.headers["content-type"] == "text/html; charset=utf-8"
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert refused.headers["Retry-After"] == refused.headers["RateLimit-Reset"]
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    # The trailing-slash path is the same route, and the same budget.
    assert (await unleash_default.get(SEARCH.replace("?", "/?"))).status_code == 429
    # Other routes are not limited and say nothing of it.
    other = await unleash_default.get("/api/admin/projects")
    assert other.status_code == 200
    assert not any(h.lower().startswith("ratelimit") for h in other.headers)


async def test_every_answer_counts_but_those_without_a_valid_token(sandbox_db, monkeypatch):
    monkeypatch.setenv(LIMIT_ENV, "2")
    async with _client(sandbox_db) as client:
        refused = await client.get(SEARCH, headers={"Authorization": "nope"})
        assert refused.status_code == 401
        assert "RateLimit-Remaining" not in refused.headers
        bad = await client.get("/api/admin/search/features?offset=-1")
        assert bad.status_code == 400
        assert bad.headers["RateLimit-Remaining"] == "1"  # a refused search spends one too
        assert (await client.get(SEARCH)).headers["RateLimit-Remaining"] == "0"
        assert (await client.get(SEARCH)).status_code == 429


async def test_each_client_ip_has_its_own_window(sandbox_db):
    app = create_app(sandbox_db, search_limit=1)
    token = read_tokens(sandbox_db).admin
    answers = []
    for ip in ("127.0.0.1", "127.0.0.1", "127.0.0.2"):
        transport = httpx.ASGITransport(app=app, client=(ip, 50000))  # type: ignore[arg-type]
        async with httpx.AsyncClient(
            transport=transport, base_url="http://sandbox", headers={"Authorization": token}
        ) as client:
            answers.append((await client.get(SEARCH)).status_code)
    assert answers == [200, 429, 200]


def test_the_window_starts_again_a_minute_after_its_first_request():
    now = [1000.0]
    limit = SearchLimit(2, clock=lambda: now[0])
    assert limit.take("ip")[0]["RateLimit-Reset"] == "60"
    now[0] += 59.2
    headers, refused = limit.take("ip")
    assert refused is None and headers["RateLimit-Remaining"] == "0"
    assert headers["RateLimit-Reset"] == "1"  # rounded up
    assert limit.take("ip")[1] is not None
    now[0] += 0.8
    headers, refused = limit.take("ip")
    assert refused is None
    assert (headers["RateLimit-Remaining"], headers["RateLimit-Reset"]) == ("1", "60")


@pytest.mark.parametrize("start", [73.89184917917957, 1000.0])
def test_a_minute_is_never_said_as_61_seconds(start):
    """(start + 60) - start is a hair over 60 for some clock readings: not a second more."""
    limit = SearchLimit(1, clock=lambda: start)
    assert limit.take("ip")[0]["RateLimit-Reset"] == "60"
    refused = limit.take("ip")[1]
    assert refused is not None and refused.headers["Retry-After"] == "60"
