"""HTTP plumbing of the admin client: one httpx.AsyncClient, error mapping, bounded read retries.

The profile's `timeout` bounds a whole request, from connecting to the last byte of the answer
(httpx's own timeout bounds each socket operation: a server trickling a byte at a time would
hold it forever). Reads are retried on connection errors and 502/503/504 with a short, bounded
backoff. Writes are never retried: a write that failed before its request went out raises
Unreachable or RequestTimeout (not applied). Once the request may have been sent, any answer that
does not prove the result raises OutcomeUnknown (re-read before sending again): a timeout, a
broken connection, a gateway's 502/503/504 (the origin may have applied it before the gateway
gave up), or a success whose body is not the expected model (for a route Unleash answers with
no body: neither empty nor JSON, as a proxy's login page). The API's own refusals (4xx, a 500,
a 503 with Unleash's own error body) keep their error classes: they say the write was not
applied.
"""

from __future__ import annotations

import asyncio
import datetime
import email.utils
import math
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import httpx
from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from flagtui.api import errors, validation
from flagtui.api.connection import client_headers, tls_context
from flagtui.api.tls_failure import is_tls_failure, tls_message

T = TypeVar("T")

RETRY_STATUSES = frozenset({502, 503, 504})
GATEWAY_NAMES = {502: "BadGateway", 503: "ServiceUnavailable", 504: "GatewayTimeout"}
DEFAULT_RETRY_DELAYS = (0.25, 0.75)
RETRY_AFTER_DEFAULT_S = 60.0  # a 429 without a readable Retry-After
RETRY_AFTER_MAX_S = 180.0  # a server asking for longer is asked again after this
# Connections to one server: the failures view reads its integrations 16 at once (a burst
# never opens more, each kept for the next request). Kept idle 4 s: under Node's default
# keep-alive of 5 s (Unleash's), so a request never leaves on a connection the server is
# closing, where a write would end "outcome unknown" without having been read.
POOL = httpx.Limits(max_connections=16, max_keepalive_connections=16, keepalive_expiry=4.0)
_ANY_JSON: TypeAdapter[Any] = TypeAdapter(Any)
Heard = Callable[[Mapping[str, str]], None]
# Runs as each request is about to leave (httpx's request event hook): --dry-run stops writes
# there, on the one transport every command uses (its proxies and certificates).
RequestHook = Callable[[httpx.Request], Awaitable[None]]


class Transport:
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        profile: str,
        timeout: float = 10.0,
        verify: bool | str = True,
        retry_delays: Sequence[float] = DEFAULT_RETRY_DELAYS,
        transport: httpx.AsyncBaseTransport | None = None,
        request_hook: RequestHook | None = None,
    ) -> None:
        self.profile = profile
        self.timeout = timeout
        self.retry_delays = tuple(retry_delays)
        self.requests_sent = 0
        self._verify = verify  # what a failed handshake's message checks again (tls_failure)
        # Plain HTTP never reaches TLS (redirects are not followed): skip loading CA certs.
        plain = base_url.startswith("http://")
        verify_arg: bool | ssl.SSLContext = False if plain else tls_context(verify)
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            headers=client_headers(token),
            timeout=httpx.Timeout(timeout),
            verify=verify_arg,
            follow_redirects=False,
            transport=transport,
            limits=POOL,
            event_hooks={"request": [request_hook] if request_hook else []},
        )

    def use_token(self, token: str) -> None:
        """Send `token` from the next request on (the profile's token source, read again)."""
        self._http.headers["Authorization"] = token

    async def aclose(self) -> None:
        await self._http.aclose()

    async def read(
        self,
        method: str,
        path: str,
        adapter: TypeAdapter[T],
        *,
        params: Any = None,
        json: Any = None,
        heard: Heard | None = None,
    ) -> T:
        """A request without side effects: retried on transient failures. `heard` is given
        the headers of every answer, an error's too (what a rate limit says is left)."""
        response = await self.ask(method, path, params=params, json=json, heard=heard)
        return self._parse(method, path, response, adapter)

    async def ask(
        self,
        method: str,
        path: str,
        *,
        params: Any = None,
        json: Any = None,
        heard: Heard | None = None,
    ) -> httpx.Response:
        """A request without side effects, its answer unread (a check whose success is the
        whole answer, as a name validation's empty 200): retried on transient failures."""
        for delay in (*self.retry_delays, None):
            try:
                return await self._send(
                    method, path, params=params, json=json, write=False, heard=heard
                )
            except (errors.Unreachable, errors.ServerError) as exc:
                transient = exc.status is None or exc.status in RETRY_STATUSES
                if delay is None or not transient:
                    raise
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    async def write(
        self, method: str, path: str, adapter: TypeAdapter[T] | None = None, *, json: Any = None
    ) -> T | None:
        response = await self._send(method, path, params=None, json=json, write=True)
        try:
            if adapter is None:
                # Unleash answers these writes with no body: any JSON passes, a page does not.
                if response.content.strip():
                    self._parse(method, path, response, _ANY_JSON)
                return None
            return self._parse(method, path, response, adapter)
        except errors.UnexpectedResponse as exc:
            # A success the body cannot prove: a proxy's login page, a truncated or other body.
            said = f"the server answered {response.status_code}, but {exc.message}"
            raise errors.OutcomeUnknown(
                method, path, status=exc.status, name=exc.name, message=said, profile=self.profile
            ) from None

    async def exchange(
        self,
        method: str,
        path: str,
        *,
        params: Sequence[tuple[str, str]],
        content: bytes | None,
        headers: Mapping[str, str],
        write: bool,
    ) -> httpx.Response:
        """A request as the caller built it (`flagtui api`), its answer whatever its status: a
        read is retried as `ask` is, a write never; a write whose answer is lost, or a
        gateway's, raises OutcomeUnknown as any write does."""
        for delay in (*self.retry_delays, None):
            try:
                response = await self._send(
                    method,
                    path,
                    params=params,
                    content=content,
                    headers=headers,
                    write=write,
                    any_status=True,
                )
            except errors.Unreachable:
                if write or delay is None:
                    raise
                await asyncio.sleep(delay)
                continue
            if write or delay is None or response.status_code not in RETRY_STATUSES:
                return response
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: Any,
        json: Any = None,
        write: bool,
        heard: Heard | None = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        any_status: bool = False,
    ) -> httpx.Response:
        where: dict[str, Any] = {"profile": self.profile}
        validation.query_params(dict(params or {}))
        if json is not None:
            validation.json_value("body", json)
        self.requests_sent += 1
        sent = _SendProgress()
        try:
            async with asyncio.timeout(self.timeout):
                response = await self._http.request(
                    method,
                    path,
                    params=params,
                    json=json,
                    content=content,
                    headers=headers,
                    extensions={"trace": sent.trace},
                )
        except (TimeoutError, httpx.TimeoutException) as exc:
            not_sent = isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout) or (
                isinstance(exc, TimeoutError) and sent.known and not sent.started
            )
            said = f"no complete answer within {self.timeout:g} s"
            if write and not not_sent:
                raise errors.OutcomeUnknown(
                    method, path, name="Timeout", message=said, **where
                ) from None
            raise errors.RequestTimeout(method, path, message=said, **where) from None
        except httpx.ConnectError as exc:
            if is_tls_failure(exc):
                said = await tls_message(exc, self._http.base_url, self._verify)
                raise errors.TlsError(method, path, message=said, **where) from None
            raise errors.Unreachable(method, path, message=_connect_message(exc), **where) from None
        except httpx.TransportError as exc:
            said = f"connection failed ({type(exc).__name__})"
            if write and (sent.started or not sent.known):
                said = f"the connection broke before the answer ({type(exc).__name__})"
                raise errors.OutcomeUnknown(
                    method, path, name="ConnectionLost", message=said, **where
                ) from None
            raise errors.Unreachable(method, path, message=said, **where) from None
        if heard is not None:
            heard(response.headers)
        if response.is_success:
            return response
        if write and _from_a_gateway(response):
            said = f"the gateway answered {response.status_code} after the request was sent"
            raise errors.OutcomeUnknown(
                method,
                path,
                status=response.status_code,
                name=GATEWAY_NAMES[response.status_code],
                message=f"{said}: {_text_summary(response)}",
                **where,
            )
        if any_status:
            return response
        raise error_from_response(method, path, response, self.profile)

    def _parse(
        self, method: str, path: str, response: httpx.Response, adapter: TypeAdapter[T]
    ) -> T:
        try:
            return adapter.validate_json(response.content)
        except PydanticValidationError as exc:
            raise errors.UnexpectedResponse(
                method,
                path,
                status=response.status_code,
                message=_describe_shape_error(exc, response),
                profile=self.profile,
            ) from None


def error_from_response(
    method: str, path: str, response: httpx.Response, profile: str
) -> errors.ApiError:
    """The typed error an answer that is not a success stands for (its status, the API's error
    name and message, or a summary of a body that is not the API's)."""
    status = response.status_code
    body = _json_object(response)
    name = body.get("name") if isinstance(body.get("name"), str) else None
    message = body.get("message") if isinstance(body.get("message"), str) else None
    details = [d for d in body.get("details") or [] if isinstance(d, dict)]
    if not body:
        message = _text_summary(response)
    common: dict[str, Any] = {"status": status, "name": name, "message": message}
    common.update(details=details, profile=profile)
    if status == 429:
        retry_after = _retry_after(response)
        return errors.RateLimited(method, path, retry_after=retry_after, **common)
    if 300 <= status < 400:
        location = response.headers.get("location", "?")
        common["message"] = f"redirected to {location}; not followed (check the profile URL)"
        common["name"] = name or "Redirect"
        return errors.UnexpectedResponse(method, path, **common)
    return errors.error_for_status(status)(method, path, **common)


def _from_a_gateway(response: httpx.Response) -> bool:
    """A 502 or 504 always comes from a gateway or proxy; a 503 unless its body is Unleash's
    own error (`_unleash_error`): a gateway's 503 (Envoy's "upstream reset", a proxy's JSON
    `{message}`) may follow a write the origin applied."""
    status = response.status_code
    if status == 503:
        return not _unleash_error(_json_object(response))
    return status in (502, 504)


# Unleash's maintenance-mode answer to every write (its maintenance middleware): not applied.
MAINTENANCE_MODE = "Unleash is currently in maintenance mode."


def _unleash_error(body: dict[str, Any]) -> bool:
    """Whether a body is one Unleash itself answers with: its maintenance-mode `{message}`, or
    its error `{name, message, details}` (UnleashError's JSON; 6.x adds an `id`). A gateway's
    JSON (a `{message}` of another text, `{name, message}` without details) is not."""
    if body == {"message": MAINTENANCE_MODE}:
        return True
    named = all(isinstance(body.get(key), str) for key in ("name", "message"))
    listed = isinstance(body.get("details"), list)
    return named and listed and set(body) <= {"id", "name", "message", "details"}


def _json_object(response: httpx.Response) -> dict[str, Any]:
    if "json" not in response.headers.get("content-type", ""):
        return {}
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _text_summary(response: httpx.Response) -> str:
    """A one-line summary of a non-JSON error body (a proxy's HTML page, a plain-text 429)."""
    kind = response.headers.get("content-type", "no content type").split(";")[0]
    text = " ".join(response.text.split())[:120] if "html" not in kind else ""
    reason = response.reason_phrase or "error"
    return f"{reason} ({kind}{': ' + text if text else ''})"


def _retry_after(response: httpx.Response) -> float:
    """Seconds to wait: Retry-After as seconds or an HTTP date, capped; a default if unreadable."""
    return parse_retry_after(response.headers.get("retry-after", ""), now=time.time())


def parse_retry_after(raw: str, *, now: float) -> float:
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            date = email.utils.parsedate_to_datetime(raw)
            if date.tzinfo is None:  # HTTP dates are GMT
                date = date.replace(tzinfo=datetime.UTC)
            seconds = date.timestamp() - now
        except (TypeError, ValueError, IndexError, OverflowError):
            return RETRY_AFTER_DEFAULT_S
    if math.isnan(seconds):
        return RETRY_AFTER_DEFAULT_S
    return min(max(0.0, seconds), RETRY_AFTER_MAX_S)


class _SendProgress:
    """httpcore's trace events of one request: whether its bytes may have left this machine.
    `known` stays False on transports that report no events (httpx.MockTransport)."""

    def __init__(self) -> None:
        self.known = False
        self.started = False

    async def trace(self, event: str, info: dict[str, Any]) -> None:
        self.known = True
        if "send_request_headers.started" in event:
            self.started = True


def _connect_message(exc: httpx.ConnectError) -> str:
    text = str(exc) or type(exc).__name__
    return f"cannot connect ({text[:120]})"


def _describe_shape_error(exc: PydanticValidationError, response: httpx.Response) -> str:
    first = exc.errors()[0]
    if first["type"] == "json_invalid":
        kind = response.headers.get("content-type", "no content type").split(";")[0]
        return f"the answer is not JSON ({kind})"
    where = ".".join(str(p) for p in first["loc"]) or "body"
    return f"the answer does not have the expected shape: {where}: {first['msg']}"
