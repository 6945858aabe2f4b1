"""--dry-run's transport: reads go to the server (a write may need the record it changes); the
first write is stopped here, unsent, as `runner.DryRunStop` (which the runner prints)."""

from __future__ import annotations

import ssl

import httpx

from flagtui.cli.session import DryRunStop

# POSTs that change nothing: the event search, and the name check a flag's creation asks first.
READING_POSTS = ("/events/search", "/api/admin/features/validate")


class DryRunTransport(httpx.AsyncBaseTransport):
    def __init__(self, verify: bool | str) -> None:
        context = ssl.create_default_context(cafile=verify) if isinstance(verify, str) else verify
        self._real = httpx.AsyncHTTPTransport(verify=context)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method in ("GET", "HEAD") or request.url.path.endswith(READING_POSTS):
            return await self._real.handle_async_request(request)
        raise DryRunStop(request)

    async def aclose(self) -> None:
        await self._real.aclose()
