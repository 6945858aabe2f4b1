"""The collector: reads every integration's deliveries from the server into the archive.

A poll lists the integrations (marking those gone from the server as deleted), reads the newest
delivery stored of each (one read), then walks each integration's deliveries newest first, 100
a page, until it meets one already stored. Pages are
joined by the delivery id, not the offset alone: each page is asked to start at the last one
seen (one row of overlap) and only older ids are taken, so a delivery the server drops from the
part already read (which moves every later row up) cannot make the walk skip one; such a page
is read again from further back. A walk
that reaches the end of what the server kept without meeting one means deliveries may have
been forgotten in between (real Unleash keeps about the newest 100 of the last 2 hours across
all integrations): it is recorded as a gap, from the newest stored to the oldest seen. A walk's
deliveries and its gap are stored in one transaction, so whatever another collector on the same
archive reads as "newest stored" has everything newer than the previous one behind it.

Each poll records up to when it read (its start): per integration whose walk finished, and for
the server when every walk did. Readers say it ("collected until …") and read the live server
too when it is old.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from flagtui.api import AdminClient, errors
from flagtui.api.models import IntegrationEvent
from flagtui.archive.store import Archive, utc_now
from flagtui.triage.records import Gap, IntegrationRef
from flagtui.triage.source import SERVER_PAGE, aware

T = TypeVar("T")

CONCURRENT_WALKS = 4
BACKOFF_FIRST = 1.0
BACKOFF_MAX = 300.0  # a server away for long is asked again every 5 minutes


@dataclass
class PollResult:
    integrations: int = 0
    stored: int = 0
    gaps: list[Gap] = field(default_factory=list)


class PollWatch(Protocol):
    """Told of every poll's end in `run` (the metrics' live part, `flagtui.metrics`)."""

    def polled(self, result: PollResult) -> None: ...
    def poll_failed(self, error: Exception) -> None: ...


class Collector:
    """`read_token`: the profile's token source; a token the server refuses (401, 403) is read
    from it again once, as it may have been rotated, and the collector stops if the token read
    is refused too (a revoked token never heals: retrying it forever helps no one)."""

    def __init__(
        self,
        client: AdminClient,
        archive: Archive,
        *,
        log: Callable[[str], None] = print,
        read_token: Callable[[], str] | None = None,
        clock: Callable[[], datetime] = utc_now,
        watch: PollWatch | None = None,
    ) -> None:
        self.client = client
        self.watch = watch
        self.archive = archive
        self.log = log
        self.read_token = read_token
        self.clock = clock
        self.state = "starting"

    async def poll(self) -> PollResult:
        started = self.clock()
        if self.client.server is None or self.state != "collecting":
            await self.client.connect()
        addons = (await self.client.integrations.list()).addons
        refs = [IntegrationRef.of(a) for a in addons]
        await asyncio.to_thread(self.archive.sync_integrations, refs, self.clock())
        ids = [r.id for r in refs]
        newest = await asyncio.to_thread(self.archive.newest_stored, ids)
        gate = asyncio.Semaphore(CONCURRENT_WALKS)
        result = PollResult(integrations=len(refs))
        complete: list[int] = []

        async def walk(integration_id: int) -> None:
            async with gate:
                stored, gap = await self._walk(integration_id, newest.get(integration_id))
            result.stored += stored
            complete.append(integration_id)
            if gap is not None:
                result.gaps.append(gap)

        try:
            await asyncio.gather(*(walk(i) for i in ids))
        finally:
            whole = len(complete) == len(refs)
            await asyncio.to_thread(
                self.archive.record_collection, complete, started, whole_server=whole
            )
        return result

    async def _walk(
        self, integration_id: int, newest: tuple[int, datetime] | None
    ) -> tuple[int, Gap | None]:
        """`newest`: the newest delivery stored (id, time) when the poll began."""
        seen: list[IntegrationEvent] = []
        met = False
        offset = 0
        while not met:
            page = await self.client.integrations.events(
                integration_id, limit=SERVER_PAGE, offset=offset
            )
            if seen and offset and (not page or _number(page[0]) < _number(seen[-1])):
                # The page starts past the last delivery seen: rows above it were dropped and
                # the rest moved up. Read again from further back.
                offset = max(0, offset - SERVER_PAGE + 1)
                continue
            for delivery in page:
                if seen and _number(delivery) >= _number(seen[-1]):
                    continue  # the overlap, or rows that arrived since (the next poll's)
                if newest is not None and _number(delivery) <= newest[0]:
                    met = True
                    break
                seen.append(delivery)
            if len(page) < SERVER_PAGE:
                break
            offset += len(page) - 1  # the next page starts at this one's last row
        gap = None
        if newest is not None and seen and not met:
            gap = Gap(integration_id, newest[1], aware(seen[-1].created_at))
        stored = await asyncio.to_thread(self.archive.store, seen, gap, now=self.clock())
        return stored, gap

    def _became(self, state: str, line: str) -> None:
        if state != self.state:
            self.state = state
            self.log(line)

    async def run(
        self, interval: float, stop: asyncio.Event, keep: Callable[[], bool] | None = None
    ) -> None:
        """Poll every `interval` seconds until `stop` is set; a failed poll is tried again
        after 1, 2, 4 … seconds (at most 5 minutes). One log line per change of state.
        `keep`: asked (in a thread) before each poll; False ends the run (the collector's
        lock is lost, `lease.py`)."""
        backoff = BACKOFF_FIRST
        token_read_again = False
        while not stop.is_set():
            if keep is not None:
                try:
                    if not await _unless_stopped(asyncio.to_thread(keep), stop):
                        return
                except _Stopped:
                    return
            try:
                result = await _unless_stopped(self.poll(), stop)
            except _Stopped:
                return
            except Exception as exc:  # any failure: the server, the network, the archive
                if self.watch is not None:
                    self.watch.poll_failed(exc)
                if _token_refused(exc):
                    if self.read_token is None or token_read_again:
                        self.log(f"poll failed: {exc}; stopping (the token is refused)")
                        raise
                    self._became("reading-token", f"{exc}; reading the token again")
                    token = _unless_stopped(asyncio.to_thread(self.read_token), stop)
                    try:
                        self.client.use_token(await token)
                    except _Stopped:
                        return
                    token_read_again = True
                    continue  # at once: no server is down, the token may be new
                self._became(f"failing:{type(exc).__name__}", f"poll failed: {exc}; retrying")
                delay, backoff = backoff, min(backoff * 2, BACKOFF_MAX)
            else:
                if self.watch is not None:
                    self.watch.polled(result)
                token_read_again = False
                self._became("collecting", f"collecting every {interval:g} s")
                for gap in result.gaps:
                    self.log(
                        f"gap: integration {gap.integration_id}, deliveries between"
                        f" {gap.start:%Y-%m-%d %H:%M:%S} and {gap.end:%Y-%m-%d %H:%M:%S} UTC"
                        " were forgotten by the server before they were collected"
                    )
                delay, backoff = interval, BACKOFF_FIRST
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)


class _Stopped(Exception):
    pass


async def _unless_stopped(work: Coroutine[Any, Any, T], stop: asyncio.Event) -> T:
    """The work's result, or _Stopped as soon as `stop` is set (the work is cancelled: a
    request in flight is dropped; a transaction already handed to the database, or a token
    source already running, finishes in its thread)."""
    task = asyncio.ensure_future(work)
    waiter = asyncio.ensure_future(stop.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        raise _Stopped
    return task.result()


def _token_refused(exc: Exception) -> bool:
    cause = exc.reason if isinstance(exc, errors.NotConnected) else exc
    return isinstance(cause, errors.AuthenticationRequired | errors.NoAccessError)


def _number(delivery: IntegrationEvent) -> int:
    return int(delivery.id) if delivery.id.isdigit() else 0
