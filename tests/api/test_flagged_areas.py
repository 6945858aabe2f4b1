"""Areas that Unleash shipped behind a flag before turning it on for everyone, on a server of
such a version with the flag off. These versions (6.1.x, 5.3 and 5.4) are not among those CI
runs, so their answers (read in Unleash's source) come from httpx.MockTransport."""

from __future__ import annotations

import json

import httpx
import pytest

from flagtui.api import AdminClient, NotSupported, errors


def _server(version: str, answer: httpx.Response) -> httpx.MockTransport:
    """ui-config says `version`; every other request gets `answer`."""

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/admin/ui-config":
            return httpx.Response(200, json={"versionInfo": {"current": {"oss": version}}})
        return answer

    return httpx.MockTransport(handle)


async def _client(transport: httpx.MockTransport) -> AdminClient:
    client = AdminClient("http://unleash.test", "*:*.secret", transport=transport)
    await client.connect()
    return client


async def test_deliveries_on_6_1_with_their_flag_off_say_what_they_need():
    """6.1's addon events route answers 404 "This feature is not enabled" while its
    `integrationEvents` flag is off."""
    off = httpx.Response(
        404, json={"name": "NotFoundError", "message": "This feature is not enabled"}
    )
    client = await _client(_server("6.1.3", off))
    async with client:
        with pytest.raises(NotSupported) as caught:
            await client.integrations.events(1)
    assert str(caught.value) == (
        "Integration deliveries need Unleash 6.2 (or 6.1 with the area's flag on)"
        " (this server is OSS 6.1.3)."
    )


async def test_lifetime_on_5_4_with_its_flag_off_says_what_it_needs():
    """5.3 and 5.4 answer the lifetime route 409 with an empty body while its flag is off."""
    client = await _client(_server("5.4.0", httpx.Response(409, content=b"")))
    async with client:
        with pytest.raises(NotSupported) as caught:
            await client.feature_types.update_lifetime("release", 30)
    assert "needs Unleash 5.5 (or 5.3 with the area's flag on)" in str(caught.value)


async def test_a_missing_flag_on_6_1_is_still_not_found():
    """Only the flag's own answer means "needs": another 404 stays the server's."""
    missing = httpx.Response(404, content=json.dumps({"name": "NotFoundError", "message": "x"}))
    client = await _client(_server("6.1.3", missing))
    async with client:
        with pytest.raises(errors.NotFoundError):
            await client.integrations.events(1)


async def test_a_conflict_on_5_5_is_the_servers_own():
    client = await _client(_server("5.5.0", httpx.Response(409, content=b"")))
    async with client:
        with pytest.raises(errors.ConflictError):
            await client.feature_types.update_lifetime("release", 30)
