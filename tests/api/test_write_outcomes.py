"""Time limits and write outcomes against small loopback servers that misbehave on purpose:
one trickles its answer a byte at a time, one closes or resets the connection once it has read
the request. No real server does this on demand, hence the fault servers."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.transport import RETRY_AFTER_DEFAULT_S, RETRY_AFTER_MAX_S, parse_retry_after

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
FEATURE = "/api/admin/projects/default/features/f"


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return head + (await reader.readexactly(length) if length else b"")


@contextlib.asynccontextmanager
async def fault_server(handler: Handler) -> AsyncIterator[tuple[str, list[bytes]]]:
    """A loopback HTTP server running `handler` per connection; yields its URL and the
    requests it read."""
    seen: list[bytes] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            seen.append(await read_request(reader))
            await handler(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", seen
    finally:
        server.close()


async def trickle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A 200 whose 100-byte body comes one byte every 0.2 s (20 s in all)."""
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    )
    for _ in range(100):
        writer.write(b" ")
        await writer.drain()
        await asyncio.sleep(0.2)


async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Read the request, answer nothing, close: httpx's RemoteProtocolError."""


async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Read the request, then reset the connection (RST, not FIN): httpx's ReadError."""
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def answering(status: int, content_type: str, body: bytes) -> Handler:
    """Read the request, then answer as a gateway or an intercepting proxy would."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\n"
        writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
        await writer.drain()

    return answer


def client(url: str, timeout: float = 1.0) -> AdminClient:
    return AdminClient(url, "*:*.t", profile="p", timeout=timeout, retry_delays=(0, 0))


@pytest.mark.parametrize("write", [False, True], ids=["read", "write"])
async def test_timeout_bounds_the_whole_request_not_each_byte(write: bool) -> None:
    async with fault_server(trickle) as (url, seen), client(url) as api:
        # The answer trickles for 20 s, a byte at a time: a timeout per byte would never fire,
        # so the error itself shows the timeout bounds the whole request (no time asserted).
        expected = errors.OutcomeUnknown if write else errors.RequestTimeout
        with pytest.raises(expected) as caught:
            if write:
                await api.environments.remove("default", "development")
            else:
                await api.feature_types.list()
    assert "within 1 s" in str(caught.value)
    if write:
        assert len(seen) == 1, "a write is never sent twice"


@pytest.mark.parametrize("fault", [hang_up, reset], ids=["hang-up", "reset"])
async def test_a_write_whose_connection_breaks_after_sending_has_an_unknown_outcome(fault):
    async with fault_server(fault) as (url, seen), client(url) as api:
        with pytest.raises(errors.OutcomeUnknown) as caught:
            await api.features.patch("default", "f", [{"op": "replace", "path": "/stale",
                                                       "value": True}])  # fmt: skip
    assert len(seen) == 1 and seen[0].startswith(b"PATCH " + FEATURE.encode())
    assert "may or may not have been applied" in str(caught.value)
    assert caught.value.name == "ConnectionLost"


@pytest.mark.parametrize("fault", [hang_up, reset], ids=["hang-up", "reset"])
async def test_a_read_whose_connection_breaks_is_retried_then_unreachable(fault):
    async with fault_server(fault) as (url, seen), client(url) as api:
        with pytest.raises(errors.Unreachable):
            await api.feature_types.list()
    assert len(seen) == 3  # the bounded retries of a read


async def test_a_write_that_cannot_connect_was_not_applied() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with client(f"http://127.0.0.1:{port}") as api:
        with pytest.raises(errors.Unreachable) as caught:
            await api.environments.remove("default", "dev")
    assert not isinstance(caught.value, errors.OutcomeUnknown)
    assert "may or may not" not in str(caught.value)


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("7", 7.0),
        ("0.5", 0.5),
        ("3600", RETRY_AFTER_MAX_S),
        ("inf", RETRY_AFTER_MAX_S),
        ("-inf", 0.0),
        ("-5", 0.0),
        ("nan", RETRY_AFTER_DEFAULT_S),
        ("soon", RETRY_AFTER_DEFAULT_S),
        ("", RETRY_AFTER_DEFAULT_S),
        ("Thu, 01 Jan 1970 00:00:30 GMT", 30.0),
        ("Thu, 01 Jan 1970 01:00:00 GMT", RETRY_AFTER_MAX_S),
        ("Wed, 31 Dec 1969 23:59:00 GMT", 0.0),
    ],
)
def test_retry_after_is_seconds_or_an_http_date_and_capped(header: str, seconds: float) -> None:
    assert parse_retry_after(header, now=0.0) == pytest.approx(seconds)


async def test_a_429_asking_for_an_hour_is_retried_within_minutes() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, text="slow down", headers={"retry-after": "3600"})

    transport = httpx.MockTransport(handler)
    async with AdminClient("http://x.test", "*:*.t", profile="p", transport=transport) as api:
        with pytest.raises(errors.RateLimited) as caught:
            await api.feature_types.list()
    assert caught.value.retry_after == RETRY_AFTER_MAX_S <= 300


GATEWAY_PAGE = b"<html><body><h1>Gateway</h1>nginx</body></html>"


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_a_gateway_error_after_a_write_was_sent_has_an_unknown_outcome(status: int) -> None:
    gateway = answering(status, "text/html", GATEWAY_PAGE)
    async with fault_server(gateway) as (url, seen), client(url) as api:
        with pytest.raises(errors.OutcomeUnknown) as caught:
            await api.environments.remove("default", "development")
        with pytest.raises(errors.ServerError):  # a read: retried, then the server's error
            await api.feature_types.list()
    assert len(seen) == 1 + 3, "the write once, the read with its retries"
    said = str(caught.value)
    assert f"the gateway answered {status} after the request was sent" in said
    assert said.endswith("may or may not have been applied: re-read before retrying")
    assert "<html" not in said


# A 503's body, and whether it is Unleash's own (the write not applied) or a gateway's (it may
# have been applied: the outcome is unknown). Unleash's: its maintenance answer and its error
# JSON as 8.2.0 and 6.10.1 send it; the gateways': each one field off Unleash's.
UNLEASH_ERROR = b'{"name": "X", "message": "m", "details": [{"message": "m"}]}'
BODIES_503 = [
    pytest.param("application/json", b'{"message": "Unleash is currently in maintenance mode."}',
                 False, id="maintenance"),
    pytest.param("application/json", UNLEASH_ERROR, False, id="unleash-error-8"),
    pytest.param("application/json", b'{"id": "1", ' + UNLEASH_ERROR[1:], False,
                 id="unleash-error-6"),
    pytest.param("application/json", b'{"message": "no healthy upstream"}', True,
                 id="proxy-message"),
    pytest.param("application/json", b'{"message": "Unleash is currently in maintenance mode"}',
                 True, id="maintenance-but-one-character"),
    pytest.param("application/json", b'{"name": "ServiceUnavailable", "message": "down"}', True,
                 id="no-details"),
    pytest.param("application/json", b'{"name": "X", "message": "m", "details": "m"}', True,
                 id="details-not-a-list"),
    pytest.param("application/json", b'{"name": 5, "message": "m", "details": []}', True,
                 id="name-not-text"),
    pytest.param("application/json", UNLEASH_ERROR[:-1] + b', "upstream": "reset"}', True,
                 id="a-field-unleash-never-sends"),
    pytest.param("text/plain", b"upstream connect error or disconnect/reset before headers."
                 b" reset reason: connection termination", True, id="envoy-reset"),
    pytest.param("text/plain", UNLEASH_ERROR, True, id="unleash-shaped-but-not-json"),
]  # fmt: skip


@pytest.mark.parametrize(("content_type", "body", "unknown"), BODIES_503)
async def test_a_503_after_a_write_is_unknown_unless_unleash_said_it(
    content_type: str, body: bytes, unknown: bool
) -> None:
    """Before, any 503 with a JSON `name` or `message` was "not applied" (issue 43, item 5):
    a script retrying on exit 6 then added a second strategy."""
    async with fault_server(answering(503, content_type, body)) as (url, seen), client(url) as api:
        with pytest.raises((errors.ServerError, errors.OutcomeUnknown)) as caught:
            await api.environments.remove("default", "development")
    assert isinstance(caught.value, errors.OutcomeUnknown) is unknown
    assert caught.value.status == 503
    assert len(seen) == 1, "a write is never sent again"


async def test_the_apis_own_503_refuses_a_write() -> None:
    """Unleash in maintenance mode answers writes 503 `{message}`: not applied."""
    body = b'{"message": "Unleash is currently in maintenance mode."}'
    maintenance = answering(503, "application/json", body)
    async with fault_server(maintenance) as (url, _), client(url) as api:
        with pytest.raises(errors.ServerError) as caught:
            await api.features.uncomplete("default", "f")
    assert not isinstance(caught.value, errors.OutcomeUnknown)
    assert caught.value.message == "Unleash is currently in maintenance mode."


@pytest.mark.parametrize(
    ("content_type", "body", "said"),
    [
        ("text/html", b"<html>Sign in</html>", "the answer is not JSON (text/html)"),
        ("application/json", b'{"ok": true}', "the answer does not have the expected shape"),
        ("application/json", b'{"name": "f", "desc', "the answer is not JSON (application/json)"),
    ],
    ids=["login-page", "wrong-shape", "truncated"],
)
async def test_a_success_whose_body_proves_nothing_has_an_unknown_outcome(
    content_type: str, body: bytes, said: str
) -> None:
    async with fault_server(answering(200, content_type, body)) as (url, seen), client(url) as api:
        with pytest.raises(errors.OutcomeUnknown) as caught:
            await api.features.patch("default", "f", [{"op": "replace", "path": "/stale",
                                                       "value": True}])  # fmt: skip
        assert not api.health.failing, "an answer came: the server is there"
    assert len(seen) == 1
    assert caught.value.status == 200
    assert caught.value.message.startswith(f"the server answered 200, but {said}")


NO_BODY_WRITES = {
    "remove environment": lambda api: api.environments.remove("default", "development"),
    "switch on": lambda api: api.features.set_environment_enabled("default", "f", "dev", True),
    "revive": lambda api: api.archived.revive_many("default", ["f"]),
}


@pytest.mark.parametrize("write", list(NO_BODY_WRITES))
async def test_a_page_where_unleash_answers_no_body_has_an_unknown_outcome(write: str) -> None:
    """Unleash answers these writes with no body (200 or 202). A proxy's login page with a 200
    proves nothing (it may never have forwarded the request): flagtui said done before."""
    login = answering(200, "text/html", b"<html>Sign in</html>")
    async with fault_server(login) as (url, seen), client(url) as api:
        with pytest.raises(errors.OutcomeUnknown) as caught:
            await NO_BODY_WRITES[write](api)
    assert len(seen) == 1
    assert caught.value.status == 200
    assert caught.value.message.startswith("the server answered 200, but the answer is not JSON")


@pytest.mark.parametrize("body", [b"", b"{}"], ids=["empty", "json"])
async def test_a_write_answered_with_no_body_or_json_is_done(body: bytes) -> None:
    async with (
        fault_server(answering(202, "application/json", body)) as (url, _),
        client(url) as api,
    ):
        assert await api.environments.remove("default", "development") is None
