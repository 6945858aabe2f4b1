"""How screens read: several reads at once, bounded."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

T = TypeVar("T")
CONCURRENCY = 4


async def bounded(calls: Iterable[Callable[[], Awaitable[T]]], limit: int = CONCURRENCY) -> list[T]:
    """Run the calls concurrently, at most `limit` at a time; results in the calls' order."""
    gate = asyncio.Semaphore(limit)

    async def one(call: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await call()

    return await asyncio.gather(*(one(call) for call in calls))
