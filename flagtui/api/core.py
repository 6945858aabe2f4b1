"""The client's core, which every resource (`features`, `events`, ...) sends its requests through.

It holds the transport (retries, error mapping, write outcomes: `transport`), what `connect()`
learnt of the server (version, edition: `capabilities`), the server's `health`, and the one
read-only check: `write` refuses on a read-only profile before any request is built.

Reads need not wait for `connect()`: the app builds its first screen and sends that screen's
reads while connecting. A request that fails while the connection fails too raises
`NotConnected` (one error to show, the connection's). Every request's outcome goes to `health`
(is the server answering?), which the UI watches.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import httpx
from pydantic import TypeAdapter

from flagtui.api import capabilities, errors
from flagtui.api.health import Health
from flagtui.api.models import ServerInfo
from flagtui.api.transport import DEFAULT_RETRY_DELAYS, RequestHook, Transport
from flagtui.api.wire import RawObject, adapter

T = TypeVar("T")

_RAW = adapter(RawObject)


class Core:
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        profile: str,
        read_only: bool,
        timeout: float,
        verify: bool | str,
        retry_delays: Sequence[float] = DEFAULT_RETRY_DELAYS,
        transport: httpx.AsyncBaseTransport | None = None,
        request_hook: RequestHook | None = None,
        before_write: Callable[[str], None] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.profile = profile
        self.read_only = read_only
        self.before_write = before_write
        """Called with a write's action just before it is sent (the CLI's last question)."""
        self.server: ServerInfo | None = None
        self.health = Health()
        self.cache: dict[tuple[Any, ...], tuple[float, Any]] = {}
        """Answers kept until the next write (the feature search's, which real Unleash rations)."""
        self._http = Transport(
            self.base_url,
            token,
            profile=profile,
            timeout=timeout,
            verify=verify,
            retry_delays=retry_delays,
            transport=transport,
            request_hook=request_hook,
        )
        self._connecting: asyncio.Event | None = None
        self._connect_error: Exception | None = None

    @property
    def requests_sent(self) -> int:
        return self._http.requests_sent

    def use_token(self, token: str) -> None:
        self._http.use_token(token)

    async def aclose(self) -> None:
        await self._http.aclose()

    # -- connecting: what the server is -----------------------------------------------------------

    async def connect(self) -> ServerInfo:
        done = self._connecting = asyncio.Event()
        try:
            raw = await self._observed(self._http.read("GET", "/api/admin/ui-config", _RAW))
            self.server = capabilities.server_info(raw)
            self._connect_error = None
            return self.server
        except Exception as exc:
            self._connect_error = exc
            raise
        finally:
            done.set()

    async def probe(self) -> None:
        with contextlib.suppress(errors.ApiError):
            await self._observed(self._http.read("GET", "/health", _RAW))

    async def connecting_done(self) -> None:
        """Wait for a `connect()` in flight, if any: for a request whose route or parameters
        depend on the server's version."""
        if self._connecting is not None:
            await self._connecting.wait()

    async def _connected(self) -> None:
        """Wait for a `connect()` in flight; raise NotConnected if it failed."""
        await self.connecting_done()
        if self._connect_error is not None:
            raise errors.NotConnected(self._connect_error) from None

    def server_label(self) -> str:
        return self.server.label if self.server else "an Unleash without this route"

    # -- requests ---------------------------------------------------------------------------------

    async def _observed(self, request: Awaitable[T]) -> T:
        """The request's answer or failure, recorded in `health`."""
        try:
            answer = await request
        except errors.ApiError as exc:
            self.health.failed(exc)
            raise
        self.health.succeeded()
        return answer

    async def _unless_disconnected(self, request: Awaitable[T]) -> T:
        """The request's answer; its failure, or NotConnected if connecting failed too."""
        try:
            return await self._observed(request)
        except errors.OutcomeUnknown:
            raise  # what the write may have done matters more than why connecting failed
        except errors.ApiError:
            await self._connected()
            raise

    async def read(self, method: str, path: str, adapter: TypeAdapter[T], **kwargs: Any) -> T:
        """A request without side effects (retried on transient failures)."""
        return await self._unless_disconnected(self._http.read(method, path, adapter, **kwargs))

    async def check(self, method: str, path: str, *, json: Any = None) -> None:
        """A request without side effects whose success is the whole answer (a name check)."""
        await self._unless_disconnected(self._http.ask(method, path, json=json))

    def require_writable(self, action: str) -> None:
        """Before a write, and before the reads that check it: nothing leaves a read-only one."""
        if self.read_only:
            raise errors.ReadOnlyProfile(self.profile, action)

    async def write(
        self,
        action: str,
        method: str,
        path: str,
        adapter: TypeAdapter[T] | None = None,
        json: Any = None,
    ) -> T | None:
        """The one way a write leaves the client: refused on a read-only profile, never retried
        (see `transport` for what a failed one raises)."""
        self.require_writable(action)
        if self.before_write is not None:
            self.before_write(action)
        self.cache.clear()
        request = self._http.write(method, path, adapter, json=json)
        return await self._unless_disconnected(request)

    async def exchange(
        self,
        action: str,
        method: str,
        path: str,
        *,
        params: Sequence[tuple[str, str]] = (),
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """Any request (`flagtui api`), its answer whatever its status. A method other than GET
        and HEAD is a write: refused on a read-only profile, asked on a production one, never
        retried."""
        write = method not in ("GET", "HEAD")
        if write:
            self.require_writable(action)
            if self.before_write is not None:
                self.before_write(action)
            self.cache.clear()
        request = self._http.exchange(
            method, path, params=params, content=content, headers=headers or {}, write=write
        )
        return await self._observed(request)

    # -- what this server serves ------------------------------------------------------------------

    async def enterprise(self, operation: str, call: Callable[[], Awaitable[T]]) -> T:
        """Run an Enterprise-only call; OSS answers such paths 404 "not available"."""
        if self.server is not None and not self.server.enterprise:
            raise errors.NotSupported(operation, self.server.label)
        try:
            return await call()
        except errors.NotFoundError as exc:
            if "not available" in exc.message:
                raise errors.NotSupported(operation, self.server_label()) from None
            raise

    def require_version(self, area: str) -> None:
        """Refuse, before sending, what this server's version cannot serve."""
        needs = capabilities.missing(self.server, area)
        if needs is not None:
            assert self.server is not None
            raise errors.NotSupported(area, self.server.label, needs=needs)

    async def versioned(self, area: str, call: Callable[[], Awaitable[T]]) -> T:
        """Run a call of an area that came in some version, possibly behind a flag: an older
        server, or one answering that the route is not available, says which version it needs."""
        await self.connecting_done()  # the version decides
        self.require_version(area)
        try:
            return await call()
        except errors.NotFoundError as exc:
            # a route missing ("... is not available") or its flag off ("Feature lifecycle is
            # disabled.", 6.1's deliveries "This feature is not enabled")
            said = exc.message
            if "not available" in said or said.endswith(("is disabled.", "is not enabled")):
                needs = capabilities.flag_off_needs(self.server, area)
                raise errors.NotSupported(area, self.server_label(), needs=needs) from None
            raise
