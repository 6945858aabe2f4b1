"""Reads may start while `connect()` is in flight; when both fail, the connection says why."""

from __future__ import annotations

import asyncio

import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.feature_query import FeatureQuery


async def test_reads_sent_during_connect_succeed_without_waiting_for_it(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        server, projects = await asyncio.gather(client.connect(), client.projects.list())
        assert server.sandbox
        assert [p.id for p in projects]


async def test_a_read_failing_with_the_connection_raises_not_connected(sandbox):
    async with AdminClient(sandbox.url, "flagtui-canary-wrong-token", retry_delays=()) as client:
        connected, read = await asyncio.gather(
            client.connect(), client.projects.list(), return_exceptions=True
        )
        assert isinstance(connected, errors.AuthenticationRequired)
        assert isinstance(read, errors.NotConnected)
        assert read.reason is connected
        assert "Not connected: GET /api/admin/ui-config" in str(read)
        with pytest.raises(errors.NotConnected):
            await client.features.search(FeatureQuery(project="payments"))


async def test_without_connect_errors_are_the_requests_own(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        with pytest.raises(errors.NotFoundError):
            await client.features.get("payments", "no-such-feature")
