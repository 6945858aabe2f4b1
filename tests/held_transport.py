"""A slow network, which the sandbox cannot produce: `Held` forwards every request to the real
server but keeps the ones it picks waiting until the test lets them go."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx


class Held(httpx.AsyncBaseTransport):
    """The real transport, with the requests `hold` picks kept until `release()`."""

    def __init__(self, hold: Callable[[str], bool]) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.hold = hold
        self.gate = asyncio.Event()
        self.sent: list[str] = []  # paths, in the order they were sent
        self.answered: list[str] = []
        self.arrived = asyncio.Condition()

    def release(self) -> None:
        self.gate.set()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request.url.path)
        if self.hold(request.url.path):
            await self.gate.wait()
        response = await self.inner.handle_async_request(request)
        self.answered.append(request.url.path)
        async with self.arrived:
            self.arrived.notify_all()
        return response

    async def answer_to(self, path: str) -> None:
        async with self.arrived:
            await self.arrived.wait_for(lambda: path in self.answered)

    async def aclose(self) -> None:
        await self.inner.aclose()
