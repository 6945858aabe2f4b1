"""Where failures are read from: the live server (`LiveSource`) or the delivery archive (the
archive package provides its own source). Screens and commands hold a `FailureSource`."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Protocol

from flagtui.api import AdminClient
from flagtui.api.models import IntegrationEvent
from flagtui.triage.grouping import error_key, group_failures
from flagtui.triage.records import Failure, FailureWindow, IntegrationRef, Origin

PAGE = 500  # failures held for one view; `FailureWindow.total` counts them all
SERVER_PAGE = 100  # the most deliveries one request may ask for (the contract's limit)
CONCURRENT_READS = 16  # per-integration reads in flight at once: all of them on most servers


def aware(value: datetime) -> datetime:
    """A time from the API, with its zone (UTC when the server left it out)."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class FailureSource(Protocol):
    origin: Origin

    async def window(
        self,
        since: datetime | None,
        *,
        integration_id: int | None = None,
        key: str | None = None,
        limit: int = PAGE,
    ) -> FailureWindow:
        """Failures since `since` (all when None), newest first; `key` is an `error_key`."""
        ...

    async def grouped(self, since: datetime | None) -> FailureWindow:
        """The same window with `groups` filled and `failures` left empty."""
        ...


class LiveSource:
    """Reads the server: the integrations, then every integration's newest deliveries at once
    (one round trip after the list). The server forgets, so `covers_since` says how far back
    its answer reaches."""

    origin: Origin = "live"

    def __init__(self, client: AdminClient) -> None:
        self.client = client

    async def _read(self) -> tuple[list[IntegrationRef], list[Failure], datetime | None]:
        addons = (await self.client.list_addons()).addons
        gate = asyncio.Semaphore(CONCURRENT_READS)

        async def deliveries(addon_id: int) -> list[IntegrationEvent]:
            async with gate:
                return await self.client.list_integration_events(addon_id, limit=SERVER_PAGE)

        pages = await asyncio.gather(*(deliveries(a.id) for a in addons))
        refs = [IntegrationRef.of(a) for a in addons]
        failures = [
            Failure(ref, d, "live")
            for ref, page in zip(refs, pages, strict=True)
            for d in page
            if d.failed
        ]
        oldest = min((aware(d.created_at) for page in pages for d in page), default=None)
        failures.sort(key=_newest_first, reverse=True)
        return refs, failures, oldest

    async def window(
        self,
        since: datetime | None,
        *,
        integration_id: int | None = None,
        key: str | None = None,
        limit: int = PAGE,
    ) -> FailureWindow:
        refs, failures, oldest = await self._read()
        chosen = [
            f
            for f in failures
            if (since is None or aware(f.delivery.created_at) >= since)
            and (integration_id is None or f.integration.id == integration_id)
            and (key is None or error_key(f.delivery.state_details) == key)
        ]
        return FailureWindow(
            "live", since, refs, chosen[:limit], covers_since=oldest, total=len(chosen)
        )

    async def grouped(self, since: datetime | None) -> FailureWindow:
        window = await self.window(since, limit=10**9)
        window.groups = group_failures(window.failures)
        window.failures = []
        return window


def _newest_first(failure: Failure) -> tuple[datetime, int]:
    delivery = failure.delivery
    return aware(delivery.created_at), int(delivery.id) if delivery.id.isdigit() else 0
