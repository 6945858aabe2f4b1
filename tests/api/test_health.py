"""The client's health record (is the server answering?) and fresh reads past the search cache,
on a real sandbox that the tests stop and start again on the same port."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from flagtui.api import AdminClient, RateLimited
from flagtui.api.errors import NotFoundError, Unreachable
from flagtui.api.feature_query import FeatureQuery
from flagtui.sandbox import SandboxServer


@pytest.fixture
async def up_and_down(sandbox_db: Path) -> AsyncIterator[tuple[SandboxServer, AdminClient]]:
    server = SandboxServer(sandbox_db).start()
    client = AdminClient(server.url, server.admin_token, retry_delays=(0.01,))
    try:
        yield server, client
    finally:
        await client.aclose()
        server.stop()


async def test_health_follows_every_request_and_tells_only_transitions(
    up_and_down: tuple[SandboxServer, AdminClient],
) -> None:
    server, client = up_and_down
    changes: list[bool] = []
    client.health.subscribe(lambda: changes.append(client.health.failing))
    await client.connect()
    health = client.health
    assert health.last_success is not None and not health.failing and health.back_at is None

    server.stop()
    for _ in range(2):
        with pytest.raises(Unreachable):
            await client.projects.list()
    assert health.failing and isinstance(health.failure, Unreachable)
    first_failure = health.failing_since
    assert first_failure is not None and first_failure >= health.last_success
    assert changes == [True]  # told once, not per request

    back = SandboxServer(server.db_path, port=server.port).start()
    try:
        with pytest.raises(NotFoundError):  # an error answer is still an answer
            await client.features.get("payments", "no-such-feature")
    finally:
        back.stop()
    assert not health.failing and health.failure is None
    assert health.back_at is not None and health.back_at >= first_failure
    assert changes == [True, False]


async def test_a_fresh_search_asks_the_server_past_the_cache(sandbox: SandboxServer) -> None:
    sandbox.use_database(sandbox.db_path, search_limit=1)  # one search a minute, as a spent one
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        await client.connect()
        first = await client.features.search(FeatureQuery(project="payments", limit=5))
        sent = client.requests_sent
        assert await client.features.search(FeatureQuery(project="payments", limit=5)) == first
        assert client.requests_sent == sent  # the cache answered
        # The budget is spent: a fresh read comes from the project's list, read now.
        fresh = await client.features.search(FeatureQuery(project="payments", limit=5), fresh=True)
        assert client.requests_sent == sent + 1
        assert fresh.source == "project-list"
        assert [f.name for f in fresh.features] == [f.name for f in first.features]
        await client.features.search(FeatureQuery(project="payments", limit=5), fresh=True)
        assert client.requests_sent == sent + 2  # never the cache
        # Only the search endpoint can answer a lifecycle filter: says when it may ask.
        with pytest.raises(RateLimited) as refused:
            await client.features.search(
                FeatureQuery(project="payments", lifecycle=["live"]), fresh=True
            )
        assert 0 < refused.value.retry_after <= 60
