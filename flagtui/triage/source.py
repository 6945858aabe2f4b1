"""Where failures are read from: the live server (`LiveSource`) or the delivery archive (the
archive package provides its own source). Screens and commands hold a `FailureSource`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from flagtui.triage.coverage import unreached, vouched_since
from flagtui.triage.grouping import error_key, group_failures
from flagtui.triage.records import (
    Delivery,
    Failure,
    FailureWindow,
    IntegrationRef,
    Origin,
    aware,
    labels,
)

if TYPE_CHECKING:  # annotations only: an archive's answer never loads the client
    from flagtui.api import AdminClient
    from flagtui.api.models import IntegrationEvent

PAGE = 500  # failures held for one view; `FailureWindow.total` counts them all
SERVER_PAGE = 100  # the most deliveries one request may ask for (the contract's limit)
CONCURRENT_READS = 16  # per-integration reads in flight at once: all of them on most servers


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

    async def grouped(
        self, since: datetime | None, *, integration_id: int | None = None
    ) -> FailureWindow:
        """The same window with `groups` filled (each with its newest failure) and `failures`
        left empty."""
        ...

    async def histogram(
        self, since: datetime, until: datetime, buckets: int
    ) -> dict[int, list[int]]:
        """Integration id -> its failures counted in `buckets` equal spans of [since, until],
        oldest first (every integration the source knows, with zeros where none failed)."""
        ...


class LiveSource:
    """Reads the server: the integrations, and every integration's newest deliveries at once.
    The integrations it knows (`known_ids`: the last list, possibly from an earlier run) are
    read together with the list, so an unchanged list costs one round trip; one the list adds
    is read once it is named (a second round trip), one it no longer has is dropped unread or
    unused. `on_listed` is told each list's ids. The server forgets, so `covers_since` says how
    far back its answer reaches, and `complete_since` how far back it holds every delivery: a
    window starting before that is incomplete (`triage.coverage`)."""

    origin: Origin = "live"

    def __init__(
        self,
        client: AdminClient,
        known_ids: Sequence[int] = (),
        on_listed: Callable[[list[int]], None] | None = None,
    ) -> None:
        self.client = client
        self.known_ids = list(known_ids)
        self.on_listed = on_listed

    async def _read(
        self,
    ) -> tuple[
        list[IntegrationRef],
        list[Failure],
        dict[int, list[tuple[int, datetime]]],
        dict[int, datetime],
    ]:
        gate = asyncio.Semaphore(CONCURRENT_READS)

        async def deliveries(addon_id: int) -> list[IntegrationEvent]:
            async with gate:
                return await self.client.integrations.events(addon_id, limit=SERVER_PAGE)

        ahead = {i: _started(deliveries(i)) for i in self.known_ids}
        try:
            addons = (await self.client.integrations.list()).addons
            reads = [
                ahead.pop(a.id) if a.id in ahead else _started(deliveries(a.id)) for a in addons
            ]
            pages = await asyncio.gather(*reads)
        finally:
            for unused in ahead.values():  # gone from the list (or the list failed)
                unused.cancel()
        self.known_ids = [a.id for a in addons]
        if self.on_listed is not None:
            self.on_listed(self.known_ids)
        refs = [IntegrationRef.of(a) for a in addons]
        failures = [
            Failure(ref, Delivery.of(d), "live")
            for ref, page in zip(refs, pages, strict=True)
            for d in page
            if d.failed
        ]
        listed = {
            ref.id: [(_number(d.id), aware(d.created_at)) for d in page]
            for ref, page in zip(refs, pages, strict=True)
        }
        succeeded = {
            ref.id: max(aware(d.created_at) for d in page if not d.failed)
            for ref, page in zip(refs, pages, strict=True)
            if any(not d.failed for d in page)
        }
        failures.sort(key=_newest_first, reverse=True)
        return refs, failures, listed, succeeded

    async def window(
        self,
        since: datetime | None,
        *,
        integration_id: int | None = None,
        key: str | None = None,
        limit: int = PAGE,
    ) -> FailureWindow:
        as_of = datetime.now(UTC)
        refs, failures, listed, succeeded = await self._read()
        chosen = [
            f
            for f in failures
            if (since is None or aware(f.delivery.created_at) >= since)
            and (integration_id is None or f.integration.id == integration_id)
            and (key is None or error_key(f.delivery.state_details) == key)
        ]
        window = FailureWindow(
            "live",
            since,
            refs,
            chosen[:limit],
            covers_since=min((at for page in listed.values() for _, at in page), default=None),
            total=len(chosen),
            as_of=as_of,
            listed=listed,
            succeeded=succeeded,
        )
        vouched = [at for i, at in vouched_since(listed).items() if integration_id in (None, i)]
        window.complete_since = max((at for at in vouched if at), default=None)
        missed = unreached(listed, since, integration_id)
        if missed:
            names = labels(refs)
            window.complete, window.unreached = False, sorted(missed)
            window.unchecked = (
                "the server no longer lists every delivery since the window's start: "
                + "; ".join(names[i] for i in sorted(missed))
            )
        return window

    async def grouped(
        self, since: datetime | None, *, integration_id: int | None = None
    ) -> FailureWindow:
        window = await self.window(since, integration_id=integration_id, limit=10**9)
        window.groups = group_failures(window.failures)
        window.failures = []
        return window

    async def histogram(
        self, since: datetime, until: datetime, buckets: int
    ) -> dict[int, list[int]]:
        refs, failures, _, _ = await self._read()
        return count_in_buckets([r.id for r in refs], failures, since, until, buckets)


def _started(read: Coroutine[Any, Any, list[IntegrationEvent]]) -> asyncio.Task[Any]:
    """A read running now; its failure is looked at by whoever awaits it, or by nobody (an
    integration gone from the list: its 404 means nothing), never reported as unretrieved."""
    task = asyncio.ensure_future(read)
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return task


def count_in_buckets(
    integration_ids: list[int],
    failures: list[Failure],
    since: datetime,
    until: datetime,
    buckets: int,
) -> dict[int, list[int]]:
    """Each integration's failures counted per equal span of [since, until] (the last span
    includes `until`), oldest first."""
    counts = {integration_id: [0] * buckets for integration_id in integration_ids}
    span = (until - since) / buckets if buckets > 0 else None
    if not span:
        return counts
    for failure in failures:
        at = aware(failure.delivery.created_at)
        if since <= at <= until:
            bucket = min(int((at - since) / span), buckets - 1)
            counts.setdefault(failure.integration.id, [0] * buckets)[bucket] += 1
    return counts


def _number(delivery_id: str) -> int:
    return int(delivery_id) if delivery_id.isdigit() else 0


def _newest_first(failure: Failure) -> tuple[datetime, int]:
    return aware(failure.delivery.created_at), _number(failure.delivery.id)
