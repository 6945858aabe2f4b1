"""`ArchiveSource`: the failures view and `flagtui failures` reading the archive; and
`failure_source`, which picks the archive when there is one and the live server otherwise.

Every answer carries the archive's freshness (`collected_until`: when a collector last read the
server completely). The archive answers only up to then, however recent: the rest of the window
is read from the live server (one round) and what the archive lacks is merged in (one row per
delivery, each with its origin); when the server cannot be read, the answer says it is
incomplete rather than passing for "nothing failed". A last collection later than now (a
collector whose clock runs ahead) is said (`clock_fault`) and vouches for nothing more.

The database calls are synchronous (`reader.ArchiveReader`); each async method runs them in a
worker thread (`asyncio.to_thread`) so the TUI's event loop never waits on the disk or the
network. Choosing a source, and starting the TUI or a command, never loads SQLAlchemy.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from flagtui.api.errors import FlagtuiError
from flagtui.archive.location import archive_url
from flagtui.archive.reader import ArchiveReader
from flagtui.config import Profile
from flagtui.triage.merge import merge_groups, newest_first
from flagtui.triage.records import Failure, FailureWindow, Origin, labels
from flagtui.triage.source import PAGE, FailureSource, LiveSource, count_in_buckets

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.archive.store import Archive


class ArchiveSource:
    """Failures from an archive (`reader.ArchiveReader`, read in worker threads), completed
    from the live server for what came after its last collection. `archive_url` is a
    SQLAlchemy-style URL (`sqlite:///…`, `postgresql://…`); `server_url` the Unleash server
    whose deliveries are read."""

    origin: Origin = "archive"

    def __init__(
        self,
        archive_url: str,
        server_url: str,
        live: LiveSource | None = None,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """`live`: the server, read for what came after the archive's last collection (None:
        never read, so every answer is incomplete from then on)."""
        self.reader = ArchiveReader(archive_url, server_url, clock=clock)
        self.live = live

    @property
    def archive(self) -> Archive:
        return self.reader.archive

    def close(self) -> None:
        self.reader.close()

    def _unreached(
        self, live: FailureWindow, since: datetime | None, integration_id: int | None
    ) -> list[int] | None:
        """The integrations of the window whose deliveries since the archive's newest the live
        read may not hold in full. Delivery ids are one sequence across integrations (real
        Unleash: a BIGSERIAL), so an integration's oldest delivery listed is vouched for back to
        the archive's newest id when every id in between was listed too (for any integration);
        an id listed by nobody is a delivery the server forgot, or another integration's the
        read did not reach. None when the archive holds no delivery (it never collected): the
        live read answers alone, and says itself what it could not vouch for."""
        newest = self.reader.newest_id()
        if newest is None:
            return None
        seen = {number for page in live.listed.values() for number, _ in page}
        unreached = []
        for i, page in sorted(live.listed.items()):
            oldest = min(page, default=None)
            if oldest is None or integration_id not in (None, i):
                continue
            number, at = oldest
            if (since is not None and at <= since) or number <= newest:
                continue  # it reaches back before the window, or into the archive
            if any(between not in seen for between in range(newest + 1, number)):
                unreached.append(i)
        return unreached

    async def _live_only(
        self,
        window: FailureWindow,
        since: datetime | None,
        integration_id: int | None,
        key: str | None,
    ) -> list[Failure]:
        """The live server's failures of the window that the archive lacks (it holds only what
        was collected, up to `collected_until`); the window is marked incomplete when the server
        is not or cannot be read."""
        if self.live is None:
            window.complete = False
            window.unchecked = "the server was not read for what came after the last collection"
            return []

        try:
            live = await self.live.window(
                since, integration_id=integration_id, key=key, limit=10**9
            )
        except FlagtuiError as exc:
            window.complete = False
            window.unchecked = f"the server could not be read: {exc}"
            return []
        # The server's own record of an integration is the newer (enabled, its description).
        now = {ref.id: ref for ref in live.integrations}
        window.integrations = [now.pop(ref.id, ref) for ref in window.integrations]
        window.integrations += now.values()
        unreached = await asyncio.to_thread(self._unreached, live, since, integration_id)
        if unreached is None:  # never collected: the live read alone says what it lacks
            window.complete, window.unreached = live.complete, live.unreached
            window.unchecked, window.complete_since = live.unchecked, live.complete_since
        elif unreached:
            names = labels(window.integrations)
            window.complete, window.unreached = False, unreached
            window.unchecked = (
                "the server no longer lists every delivery since the archive's newest"
                " (it keeps only recent ones): " + "; ".join(names[i] for i in unreached)
            )
        added = await asyncio.to_thread(self.reader.not_stored, live.failures)
        window.succeeded = live.succeeded
        window.live_added = len(added)
        window.total += len(added)
        window.as_of = live.as_of
        return added

    async def window(
        self,
        since: datetime | None,
        *,
        integration_id: int | None = None,
        key: str | None = None,
        limit: int = PAGE,
    ) -> FailureWindow:
        window = await asyncio.to_thread(self.reader.window, since, integration_id, key, limit)
        added = await self._live_only(window, since, integration_id, key)
        if added:
            window.failures = newest_first([*window.failures, *added])[:limit]
        return window

    async def grouped(
        self, since: datetime | None, *, integration_id: int | None = None
    ) -> FailureWindow:
        window = await asyncio.to_thread(self.reader.grouped, since, integration_id)
        added = await self._live_only(window, since, integration_id, None)
        if added:
            window.groups = merge_groups(window.groups, added)
        return window

    async def histogram(
        self, since: datetime, until: datetime, buckets: int
    ) -> dict[int, list[int]]:
        """Integration id → failure counts per equal bucket of [since, until), oldest first,
        with the live server's failures the archive lacks."""
        counts = await asyncio.to_thread(self.reader.histogram, since, until, buckets)
        if self.live is None:
            return counts
        freshness = await asyncio.to_thread(self.reader.freshness, since)
        added = await self._live_only(freshness, since, None, None)
        for integration_id, more in count_in_buckets([], added, since, until, buckets).items():
            held = counts.get(integration_id, [0] * buckets)
            counts[integration_id] = [a + b for a, b in zip(held, more, strict=True)]
        return counts


def failure_source(
    profile: Profile,
    client: AdminClient,
    known_ids: Sequence[int] = (),
    on_listed: Callable[[list[int]], None] | None = None,
) -> FailureSource:
    """The archive when the profile has one (or its default file exists), completed from the
    server; else the server (`known_ids` and `on_listed`: see `LiveSource`)."""
    url = archive_url(profile)
    live = LiveSource(client, known_ids, on_listed)
    if url is None:
        return live
    return ArchiveSource(url, profile.url, live)
