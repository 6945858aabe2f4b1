"""The feature search within what the server says is left of its limit (issue 45, item 7), on a
sandbox limited as Unleash 8.2 is (per client IP, RateLimit headers on every answer), to a few
searches a minute: once none is left, searches the project list can answer are answered from
it, and no 429 is provoked; a search another client spent is seen; where the server limits
nothing, nothing is held back."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from flagtui.api import AdminClient, RateLimited
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.search_budget import SearchBudget
from flagtui.sandbox import SandboxServer


@pytest.fixture
def limit_searches(sandbox: SandboxServer) -> Callable[[int], None]:
    """Give the sandbox a limit of this many searches a minute, in a new window."""
    return lambda per_minute: sandbox.use_database(sandbox.db_path, search_limit=per_minute)


@pytest.fixture
async def budgeted(sandbox, limit_searches) -> AsyncIterator[AdminClient]:
    limit_searches(2)
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        yield client


async def test_identical_searches_are_served_from_the_cache(budgeted):
    first = await budgeted.features.search(FeatureQuery(project="payments", limit=10))
    sent = budgeted.requests_sent
    again = await budgeted.features.search(FeatureQuery(project="payments", limit=10))
    assert again == first
    assert budgeted.requests_sent == sent


@pytest.mark.parametrize(
    "filters",
    [
        {},
        {"query": "billing"},
        {"types": ["experiment", "release"]},
        {"states": ["stale"]},
        {"sort_by": "createdAt", "sort_order": "desc"},
    ],
)
async def test_nothing_left_falls_back_to_the_project_list(sandbox, limit_searches, admin, filters):
    query = FeatureQuery(project="payments", offset=5, limit=10, **filters)
    expected = await admin.features.search(query)  # before the limit
    limit_searches(2)
    async with AdminClient(sandbox.url, sandbox.admin_token) as budgeted:
        await budgeted.features.search(FeatureQuery(project="growth", limit=1))
        await budgeted.features.search(FeatureQuery(project="mobile-app", limit=1))
        assert budgeted.features.budget.remaining == 0
        sent = budgeted.requests_sent
        page = await budgeted.features.search(query)
        assert budgeted.requests_sent == sent + 1  # the project's list, not the search
    assert page.source == "project-list"
    assert page.total == expected.total
    assert [f.name for f in page.features] == [f.name for f in expected.features]


async def test_a_search_the_list_cannot_answer_waits_instead_of_provoking_a_429(budgeted):
    await budgeted.features.search(FeatureQuery(project="growth", limit=1))
    await budgeted.features.search(FeatureQuery(project="mobile-app", limit=1))
    sent = budgeted.requests_sent
    with pytest.raises(RateLimited) as caught:
        await budgeted.features.search(FeatureQuery(project="payments", lifecycle=["live"]))
    assert budgeted.requests_sent == sent
    assert 0 < caught.value.retry_after <= 60
    assert "allows 2 feature searches a minute per IP" in str(caught.value)


async def test_what_another_client_spent_is_seen(sandbox, limit_searches):
    """The budget is the IP's: another client (the web UI, a script) spending it leaves this
    one less, which only the server's headers can tell. Failed on the client's own count: it
    sent the lifecycle search, and the server answered 429."""
    limit_searches(4)
    async with (
        AdminClient(sandbox.url, sandbox.admin_token) as mine,
        AdminClient(sandbox.url, sandbox.admin_token) as other,
    ):
        await mine.features.search(FeatureQuery(project="growth", limit=1))
        assert mine.features.budget.remaining == 3
        for project in ("mobile-app", "platform"):
            await other.features.search(FeatureQuery(project=project, limit=1))
        page = await mine.features.search(FeatureQuery(project="payments", limit=1))
        assert page.source == "search"  # the last one
        assert mine.features.budget.remaining == 0
        sent = mine.requests_sent
        with pytest.raises(RateLimited):
            await mine.features.search(FeatureQuery(project="payments", lifecycle=["live"]))
        assert mine.requests_sent == sent  # held back, not refused by the server


async def test_a_429_says_when_and_is_not_asked_again(sandbox, limit_searches):
    limit_searches(1)
    async with (
        AdminClient(sandbox.url, sandbox.admin_token) as mine,
        AdminClient(sandbox.url, sandbox.admin_token) as other,
    ):
        await other.features.search(FeatureQuery(project="growth", limit=1))
        with pytest.raises(RateLimited) as refused:  # mine had heard nothing yet
            await mine.features.search(FeatureQuery(project="payments", lifecycle=["live"]))
        assert 0 < refused.value.retry_after <= 60
        sent = mine.requests_sent
        with pytest.raises(RateLimited):
            await mine.features.search(FeatureQuery(project="payments", lifecycle=["live"]))
        assert mine.requests_sent == sent
        page = await mine.features.search(FeatureQuery(project="payments", limit=1))
        assert page.source == "project-list"


async def test_writes_clear_the_cache(budgeted):
    page = await budgeted.features.search(FeatureQuery(project="payments", limit=1))
    feature = page.features[0]
    await budgeted.features.patch(
        "payments", feature.name, [{"op": "replace", "path": "/description", "value": "new"}]
    )
    again = await budgeted.features.search(FeatureQuery(project="payments", limit=1))
    assert again.features[0].description == "new"


async def test_prefetch_fills_the_cache_only_while_half_the_limit_is_left(sandbox, limit_searches):
    limit_searches(4)
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        assert await client.features.prefetch(FeatureQuery(project="payments", offset=50, limit=50))
        sent = client.requests_sent
        page = await client.features.search(FeatureQuery(project="payments", offset=50, limit=50))
        assert client.requests_sent == sent  # PageDown: answered from the cache
        assert page.features and page.total == 62
        await client.features.search(FeatureQuery(project="growth", limit=1))  # 2 of 4 left
        assert await client.features.prefetch(FeatureQuery(project="growth", offset=50, limit=50))
        assert not await client.features.prefetch(
            FeatureQuery(project="platform", offset=50, limit=50)
        )
        assert client.requests_sent == sent + 2  # the refused prefetch sent nothing


def test_a_server_that_says_no_limit_is_never_waited_for():
    """Unleash 6.x and 7.x send no RateLimit header: searches are never held back there."""
    budget = SearchBudget()
    for _ in range(100):
        assert budget.wait() == 0 and budget.half_left()
        budget.heard({"content-type": "application/json"})
    assert budget.remaining is None


def test_the_window_the_server_named_ends_when_it_said():
    now = [0.0]
    budget = SearchBudget(clock=lambda: now[0])
    budget.heard({"ratelimit-limit": "15", "ratelimit-remaining": "0", "ratelimit-reset": "42"})
    assert budget.wait() == 42 and not budget.half_left()
    now[0] = 41.5
    assert budget.wait() == 0.5
    now[0] = 42.0
    assert budget.wait() == 0 and budget.half_left()  # a new window, all of it left
    budget.heard({"ratelimit-remaining": "3", "ratelimit-limit": "15"})
    assert budget.wait() == 0 and not budget.half_left()
