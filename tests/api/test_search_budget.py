"""Real Unleash's 15-searches-a-minute limit, exercised on the sandbox with a tiny budget: once
spent, searches the project list can answer are answered from it, and no 429 is provoked."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient, RateLimited
from flagtui.api.feature_query import FeatureQuery


@pytest.fixture
async def budgeted(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token, search_budget=(2, 60.0)) as client:
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
async def test_spent_budget_falls_back_to_the_project_list(budgeted, admin, filters):
    await budgeted.features.search(FeatureQuery(project="growth", limit=1))
    await budgeted.features.search(FeatureQuery(project="mobile-app", limit=1))
    page = await budgeted.features.search(
        FeatureQuery(project="payments", offset=5, limit=10, **filters)
    )
    expected = await admin.features.search(
        FeatureQuery(project="payments", offset=5, limit=10, **filters)
    )
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
    assert "15 feature searches a minute" in str(caught.value)


async def test_writes_clear_the_cache(budgeted):
    page = await budgeted.features.search(FeatureQuery(project="payments", limit=1))
    feature = page.features[0]
    await budgeted.features.patch(
        "payments", feature.name, [{"op": "replace", "path": "/description", "value": "new"}]
    )
    again = await budgeted.features.search(FeatureQuery(project="payments", limit=1))
    assert again.features[0].description == "new"


async def test_prefetch_fills_the_cache_only_while_half_the_budget_is_left(sandbox):
    budget = (4, 60.0)
    async with AdminClient(sandbox.url, sandbox.admin_token, search_budget=budget) as client:
        assert await client.features.prefetch(FeatureQuery(project="payments", offset=50, limit=50))
        sent = client.requests_sent
        page = await client.features.search(FeatureQuery(project="payments", offset=50, limit=50))
        assert client.requests_sent == sent  # PageDown: answered from the cache
        assert page.features and page.total == 62
        await client.features.search(FeatureQuery(project="growth", limit=1))  # 2 of 4 spent now
        assert await client.features.prefetch(FeatureQuery(project="growth", offset=50, limit=50))
        assert not await client.features.prefetch(
            FeatureQuery(project="platform", offset=50, limit=50)
        )
        assert client.requests_sent == sent + 2  # the refused prefetch sent nothing
