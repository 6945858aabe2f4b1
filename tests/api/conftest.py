from __future__ import annotations

import pytest

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery


@pytest.fixture
async def admin(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox-admin") as client:
        await client.connect()
        yield client


@pytest.fixture
async def viewer(sandbox):
    async with AdminClient(sandbox.url, sandbox.viewer_token, profile="sandbox-viewer") as client:
        yield client


@pytest.fixture
async def stranger(sandbox):
    async with AdminClient(sandbox.url, "*:*.not-a-token", profile="stranger") as client:
        yield client


@pytest.fixture
async def some_feature(admin):
    page = await admin.features.search(FeatureQuery(project="payments", limit=1))
    return page.features[0]
