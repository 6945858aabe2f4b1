"""API tokens through AdminClient against real Unleash OSS (what `flagtui/api/api_tokens.py`
says it does): a client token created, read with by the official Python SDK, listed with its
secret masked and its seenAt, and revoked; each write's event checked. Only tokens the test
created are revoked."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from real_sdk import SdkWatch

from flagtui.api import errors
from flagtui.masking import masked_event

pytestmark = pytest.mark.unleash
SEEN_GUARD_S = 400  # the pytest timeout below is above it: the test's own bound fails first


async def newest(client, type_: str, name: str):
    page = await client.events.search(type=type_, limit=20)
    blob = [e for e in page.events if name in str(e.data) + str(e.pre_data)]
    return blob[0] if blob else None


async def test_a_client_token_is_created_read_with_and_revoked(real_client, real_feature):
    name = f"conformance-token-{uuid.uuid4().hex[:8]}"
    body = real_client.api_tokens.body(name, "client", "development", ["default"])
    token = await real_client.api_tokens.create(body)
    try:
        assert token.secret.startswith("default:development.")
        assert (token.token_name, token.type, token.projects) == (name, "client", ["default"])
        created = await newest(real_client, "api-token-created", name)
        assert created is not None and token.secret not in str(created)
        assert masked_event(created).data["tokenName"] == name

        sdk = await asyncio.to_thread(SdkWatch, real_client.base_url, token.secret, "development")
        try:
            await asyncio.to_thread(sdk.wait_until, real_feature, False)  # known, off
        finally:
            await asyncio.to_thread(sdk.close)

        listed = next(t for t in await real_client.api_tokens.list() if t.token_name == name)
        shown = listed.shown()
        assert shown["secret"] == "default:development.•••••" and token.secret not in str(shown)
        assert (shown["orphaned"], shown["legacy"]) == (False, False)
        assert listed.created_at is not None
    finally:
        await real_client.api_tokens.revoke(token)
    assert all(t.secret != token.secret for t in await real_client.api_tokens.list())
    deleted = await newest(real_client, "api-token-deleted", name)
    assert deleted is not None and deleted.data is None
    assert deleted.pre_data["tokenName"] == name and "secret" not in deleted.pre_data


@pytest.mark.slow
@pytest.mark.timeout(SEEN_GUARD_S + 120)
async def test_seen_at_is_recorded_after_use(real_client):
    """Every version records it, by a batch job, not at once: seen after 31 s on 7.5.1, 86 s on
    6.10.1 and 159 s on 8.2.0 in one check. The guard only ends a hang."""
    name = f"conformance-seen-{uuid.uuid4().hex[:8]}"
    token = await real_client.api_tokens.create(
        real_client.api_tokens.body(name, "client", "development", ["default"])
    )
    try:
        sdk = await asyncio.to_thread(SdkWatch, real_client.base_url, token.secret, "development")
        try:
            assert (await real_client.api_tokens.find(name)).seen_at is None
            deadline = time.monotonic() + SEEN_GUARD_S
            while (await real_client.api_tokens.find(name)).seen_at is None:
                assert time.monotonic() < deadline, f"{name}: no seenAt after {SEEN_GUARD_S} s"
                await asyncio.sleep(2)
        finally:
            await asyncio.to_thread(sdk.close)
    finally:
        await real_client.api_tokens.revoke(token)


@pytest.mark.parametrize(
    ("environment", "field"),
    [("*", "environment"), ("", "environment")],
)
async def test_what_flagtui_refuses_before_sending(real_client, environment, field):
    with pytest.raises(errors.InvalidArgument) as refused:
        real_client.api_tokens.body("x", "client", environment)
    assert refused.value.field == field


async def test_what_the_server_refuses_is_said(real_client):
    name = f"conformance-bad-{uuid.uuid4().hex[:8]}"
    with pytest.raises(errors.ApiError) as refused:
        await real_client.api_tokens.create(
            real_client.api_tokens.body(name, "client", "nope-environment")
        )
    assert refused.value.status == 400 and refused.value.name == "BadDataError"
    assert "Environment=nope-environment does not exist" in refused.value.message
    assert all(t.token_name != name for t in await real_client.api_tokens.list())
