"""--dry-run's transport: reads go to the server (a write may need the record it changes); the
first write is stopped here, unsent, as `runner.DryRunStop` (which the runner prints)."""

from __future__ import annotations

import ssl

import httpx

from flagtui.cli.session import DryRunStop

# The POST that changes nothing (a read before Unleash 7); a write's --dry-run sends no other.
READING_POSTS = ("/events/search",)


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
