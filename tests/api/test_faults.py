"""Faults a real server cannot easily produce, through httpx.MockTransport: each becomes a typed
error naming what was tried, and never carries the token."""

from __future__ import annotations

import ssl

import httpx
import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.feature_query import FeatureQuery

TOKEN = "*:*.flagtui-canary-fault-6f1d"  # the secret scan looks for this prefix


def client_for(handler, **kwargs) -> AdminClient:
    return AdminClient(
        "https://unleash.example.test",
        TOKEN,
        profile="ops",
        transport=httpx.MockTransport(handler),
        retry_delays=(0, 0),
        **kwargs,
    )


def _assert_no_token(exc: BaseException) -> None:
    for text in (str(exc), repr(exc), str(exc.__dict__)):
        assert TOKEN not in text
        assert "canary" not in text


async def _raises(handler, call, kind):
    client = client_for(handler)
    try:
        with pytest.raises(kind) as caught:
            await call(client)
    finally:
        await client.aclose()
    _assert_no_token(caught.value)
    return caught.value


async def test_timeout_on_a_read_is_a_timeout_with_known_outcome():
    def handler(request):
        raise httpx.ReadTimeout("timed out", request=request)

    exc = await _raises(handler, lambda c: c.feature_types.list(), errors.RequestTimeout)
    assert "GET /api/admin/feature-types (profile ops)" in str(exc)


async def test_timeout_after_a_write_was_sent_has_an_unknown_outcome():
    def handler(request):
        raise httpx.ReadTimeout("timed out", request=request)

    exc = await _raises(
        handler,
        lambda c: c.environments.remove("default", "development"),
        errors.OutcomeUnknown,
    )
    assert "re-read before retrying" in str(exc)


async def test_connect_timeout_on_a_write_was_not_sent():
    def handler(request):
        raise httpx.ConnectTimeout("timed out", request=request)

    exc = await _raises(
        handler, lambda c: c.environments.remove("default", "dev"), errors.RequestTimeout
    )
    assert not isinstance(exc, errors.OutcomeUnknown)


async def test_tls_failure_is_a_tls_error():
    def handler(request):
        cause = ssl.SSLCertVerificationError("certificate verify failed")
        raise httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED]", request=request) from cause

    exc = await _raises(handler, lambda c: c.projects.list(), errors.TlsError)
    assert "ca_bundle" in str(exc)


async def test_malformed_json_is_an_unexpected_response():
    def handler(request):
        return httpx.Response(200, text="{not json", headers={"content-type": "application/json"})

    exc = await _raises(handler, lambda c: c.projects.list(), errors.UnexpectedResponse)
    assert "not JSON" in str(exc)


async def test_wrong_shape_names_the_field():
    def handler(request):
        return httpx.Response(200, json={"types": [{"id": "release", "name": "Release"}]})

    exc = await _raises(handler, lambda c: c.feature_types.list(), errors.UnexpectedResponse)
    assert "types.0.description" in str(exc)


async def test_html_from_a_proxy_is_summarised_not_dumped():
    html = "<html><body><h1>502 Bad Gateway</h1>" + "x" * 5000 + "</body></html>"

    def handler(request):
        return httpx.Response(502, text=html, headers={"content-type": "text/html"})

    exc = await _raises(handler, lambda c: c.projects.list(), errors.ServerError)
    assert exc.status == 502
    assert "<html>" not in str(exc) and len(str(exc)) < 300


async def test_reads_are_retried_on_503_and_succeed():
    calls = []

    def handler(request):
        calls.append(request)
        if len(calls) < 3:
            return httpx.Response(503, text="busy")
        return httpx.Response(200, json={"version": 1, "projects": []})

    async with client_for(handler) as client:
        assert await client.projects.list() == []
    assert len(calls) == 3


async def test_writes_are_never_retried():
    calls = []

    def handler(request):
        calls.append(request)
        down = {"name": "ServiceUnavailable", "message": "down", "details": [{"message": "down"}]}
        return httpx.Response(503, json=down)  # Unleash's own: not applied

    await _raises(
        handler,
        lambda c: c.environments.remove("default", "development"),
        errors.ServerError,
    )
    assert len(calls) == 1


async def test_rate_limit_carries_retry_after():
    def handler(request):
        return httpx.Response(
            429,
            text="Too many requests, please try again later.",
            headers={"retry-after": "42", "content-type": "text/plain"},
        )

    exc = await _raises(handler, lambda c: c.features.search(FeatureQuery()), errors.RateLimited)
    assert exc.retry_after == 42
    assert "Too many requests" in str(exc)


async def test_redirect_to_another_host_is_not_followed():
    seen = []

    def handler(request):
        seen.append(request)
        return httpx.Response(302, headers={"location": "https://evil.example.test/steal"})

    exc = await _raises(handler, lambda c: c.projects.list(), errors.UnexpectedResponse)
    assert len(seen) == 1
    assert "evil.example.test" in str(exc) and "not followed" in str(exc)


async def test_error_body_with_only_a_message_is_kept():
    def handler(request):
        return httpx.Response(400, json={"message": "lifetimeDays must be positive"})

    exc = await _raises(
        handler, lambda c: c.feature_types.update_lifetime("release", 3), errors.ValidationError
    )
    assert exc.name == "ValidationError"
    assert "lifetimeDays must be positive" in str(exc)


async def test_real_error_details_are_shown():
    body = {
        "name": "BadDataError",
        "message": "Request validation failed",
        "details": [{"message": "The `lifetimeDays` property must be a number."}],
    }

    def handler(request):
        return httpx.Response(400, json=body)

    exc = await _raises(
        handler, lambda c: c.feature_types.update_lifetime("release", 3), errors.ValidationError
    )
    assert "BadDataError" in str(exc) and "must be a number" in str(exc)


async def test_every_request_names_flagtui_and_sends_the_token_only_as_a_header():
    seen = []

    def handler(request):
        seen.append(request)
        return httpx.Response(200, json={"version": 1, "projects": []})

    async with client_for(handler) as client:
        await client.projects.list()
    assert seen[0].headers["user-agent"].startswith("flagtui/")
    assert seen[0].headers["authorization"] == TOKEN
    assert TOKEN not in str(seen[0].url)
    assert TOKEN not in repr(client)


async def test_user_search_accepts_the_bare_array_of_real_unleash():
    def handler(request):
        return httpx.Response(200, json=[{"id": 1, "name": "Admin", "email": "admin@x.test"}])

    async with client_for(handler) as client:
        found = await client.users.search("ad")
    assert [u.name for u in found.users] == ["Admin"]
    assert found.root_roles == []
