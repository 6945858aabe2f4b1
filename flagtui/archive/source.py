"""`ArchiveSource`: the failures view and `flagtui failures` reading the archive; and
`failure_source`, which picks the archive when there is one and the live server otherwise.

Every answer carries the archive's freshness (`collected_until`: when a collector last read the
server completely). When that is older than a few collection intervals (`STALE_AFTER`), or no
collector ever read this server, the live server is read too and what the archive lacks is
merged in (one row per delivery, each with its origin); when the server cannot be read either,
the answer says it is incomplete rather than passing for "nothing failed".

The database calls are synchronous; each async method runs them in a worker thread
(`asyncio.to_thread`) so the TUI's event loop never waits on the disk or the network. A SQLite
archive at the newest schema version is read with the standard library's sqlite3
(`sqlite_reads`); SQLAlchemy is imported only to migrate an older one, and for PostgreSQL, at
the first read: choosing a source, and starting the TUI or a command, never loads it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from types import ModuleType
from typing import TYPE_CHECKING, Any

from flagtui.archive import sqlite_reads
from flagtui.archive.location import default_archive_path, server_key, sqlite_url
from flagtui.triage.merge import delivery_key, merge_groups, newest_first
from flagtui.triage.records import Failure, FailureWindow, Origin, labels
from flagtui.triage.source import PAGE, FailureSource, LiveSource, count_in_buckets

if TYPE_CHECKING:
    import sqlite3

    from flagtui.api import AdminClient
    from flagtui.archive.store import Archive
    from flagtui.config import Profile

# An archive older than this is completed from the live server: three polls of `flagtui
# collect` at its default 30 s interval, so one slow or failed poll does not count.
STALE_AFTER = timedelta(seconds=90)


class ArchiveSource:
    """Failures from an archive; opened (and migrated) at the first read, in a worker thread.
    `archive_url` is a SQLAlchemy-style URL (`sqlite:///…`, `postgresql://…`); `server_url`
    the Unleash server whose deliveries are read."""

    origin: Origin = "archive"

    def __init__(
        self,
        archive_url: str,
        server_url: str,
        live: LiveSource | None = None,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """`live`: the server, read when the archive is old (None: never read)."""
        self.archive_url = archive_url
        self.server_url = server_url
        self.live = live
        self.clock = clock
        self.server = server_key(server_url)
        self._archive: Archive | None = None
        self._opening = threading.Lock()
        # sqlite3's connection, once the file is known to be at the newest schema version
        # (None: not yet opened, or read through SQLAlchemy); one read at a time uses it.
        self._sqlite: sqlite3.Connection | None = None
        self._sqlite_tried = False
        self._one_read = threading.Lock()

    @property
    def archive(self) -> Archive:
        from flagtui.archive.store import Archive

        with self._opening:
            if self._archive is None:
                self._archive = Archive.open(self.archive_url, self.server_url)
            return self._archive

    def close(self) -> None:
        with self._opening:
            if self._sqlite is not None:
                self._sqlite.close()
                self._sqlite = None
            if self._archive is not None:
                self._archive.close()

    def _sqlite_connection(self) -> sqlite3.Connection | None:
        """sqlite3 on the archive's file when it is one at the newest schema version; an older
        one is migrated (through `archive`) first. None: read through SQLAlchemy."""
        path = sqlite_reads.sqlite_path(self.archive_url)
        if path is None:
            return None
        with self._opening:
            if self._sqlite_tried:
                return self._sqlite
        try:
            conn = sqlite_reads.open_current(path)
        except sqlite_reads.NotCurrent:
            self.archive  # noqa: B018 (opening migrates it, or says why it cannot be opened)
            try:
                conn = sqlite_reads.open_current(path)
            except sqlite_reads.NotCurrent:
                conn = None
        conn_used = conn
        with self._opening:
            if self._sqlite_tried:  # another thread opened it meanwhile
                conn_used = self._sqlite
            else:
                self._sqlite, self._sqlite_tried = conn, True
        if conn is not None and conn is not conn_used:
            conn.close()
        return conn_used

    @contextmanager
    def _reading(self) -> Iterator[tuple[ModuleType, Any]]:
        """The reads (`sqlite_reads` or `queries`) and a connection holding one snapshot."""
        conn = self._sqlite_connection()
        if conn is not None:
            with self._one_read, sqlite_reads.reading(conn):
                yield sqlite_reads, conn
            return
        from flagtui.archive import queries

        with self.archive.reading() as engine_conn:
            yield queries, engine_conn

    def _window(
        self, since: datetime | None, integration_id: int | None, key: str | None, limit: int
    ) -> FailureWindow:
        server = self.server
        with self._reading() as (queries, conn):
            refs = queries.integrations(conn, server)
            by_id = {r.id: r for r in refs}
            found, total, skipped = queries.failures(
                conn, server, by_id, since, integration_id, key, limit
            )
            window = FailureWindow("archive", since, refs, found, total=total)
            self._describe(queries, conn, window, integration_id)
        window.unreadable += skipped
        return window

    def _grouped(self, since: datetime | None) -> FailureWindow:
        server = self.server
        with self._reading() as (queries, conn):
            refs = queries.integrations(conn, server)
            groups, total = queries.groups(conn, server, {r.id: r for r in refs}, since)
            window = FailureWindow("archive", since, refs, groups=groups, total=total)
            self._describe(queries, conn, window, None)
        return window

    def _describe(
        self, queries: ModuleType, conn: Any, window: FailureWindow, integration_id: int | None
    ) -> None:
        """What every archive answer says of itself: its gaps, how far back it reaches, the
        rows it could not read, and up to when a collector read the server."""
        server = self.server
        window.gaps = queries.gaps(conn, server, window.since, integration_id)
        window.covers_since = queries.oldest_stored(conn, server)
        window.unreadable = queries.unreadable_times(conn, server)
        window.collected_until = window.as_of = queries.collected_until(
            conn, server, integration_id
        )

    def _freshness(self, since: datetime) -> FailureWindow:
        """An answer holding only the integrations and the archive's freshness: what deciding
        to read the live server needs, without the window's own reads."""
        server = self.server
        with self._reading() as (queries, conn):
            refs = queries.integrations(conn, server)
            until = queries.collected_until(conn, server, None)
        return FailureWindow("archive", since, refs, collected_until=until, as_of=until)

    def _not_stored(self, failures: list[Failure]) -> list[Failure]:
        keys = [(f.integration.id, int(f.delivery.id)) for f in failures if f.delivery.id.isdigit()]
        with self._reading() as (queries, conn):
            held = {(i, str(d)) for i, d in queries.stored(conn, self.server, keys)}
        return [f for f in failures if delivery_key(f) not in held]

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
        with self._reading() as (queries, conn):
            newest = queries.newest_id(conn, self.server)
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

    async def fresh(self) -> bool:
        """Whether a collector read the server lately enough (`STALE_AFTER`) that the archive
        answers alone: then nothing needs the server, nor the client's modules."""
        return not self._stale(await asyncio.to_thread(self._collected_until))

    def _collected_until(self) -> datetime | None:
        with self._reading() as (queries, conn):
            return queries.collected_until(conn, self.server, None)

    def is_stale(self, window: FailureWindow) -> bool:
        return self._stale(window.collected_until)

    def _stale(self, until: datetime | None) -> bool:
        return until is None or self.clock() - until > STALE_AFTER

    async def _live_only(
        self,
        window: FailureWindow,
        since: datetime | None,
        integration_id: int | None,
        key: str | None,
    ) -> list[Failure]:
        """The live server's failures of the window that the archive lacks, when the archive
        is old; the window is marked incomplete when the server cannot be read."""
        if self.live is None or not self.is_stale(window):
            return []
        from flagtui.api.errors import FlagtuiError

        try:
            live = await self.live.window(
                since, integration_id=integration_id, key=key, limit=10**9
            )
        except FlagtuiError as exc:
            window.complete = False
            window.unchecked = f"the server could not be read: {exc}"
            return []
        known = {ref.id for ref in window.integrations}
        window.integrations += [ref for ref in live.integrations if ref.id not in known]
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
        added = await asyncio.to_thread(self._not_stored, live.failures)
        window.live_added = len(added)
        window.total += len(added)
        window.as_of = live.as_of
        return added

    def _histogram(self, since: datetime, until: datetime, buckets: int) -> dict[int, list[int]]:
        with self._reading() as (queries, conn):
            return queries.histogram(conn, self.server, since, until, buckets)

    async def window(
        self,
        since: datetime | None,
        *,
        integration_id: int | None = None,
        key: str | None = None,
        limit: int = PAGE,
    ) -> FailureWindow:
        window = await asyncio.to_thread(self._window, since, integration_id, key, limit)
        added = await self._live_only(window, since, integration_id, key)
        if added:
            window.failures = newest_first([*window.failures, *added])[:limit]
        return window

    async def grouped(self, since: datetime | None) -> FailureWindow:
        window = await asyncio.to_thread(self._grouped, since)
        added = await self._live_only(window, since, None, None)
        if added:
            window.groups = merge_groups(window.groups, added)
        return window

    async def histogram(
        self, since: datetime, until: datetime, buckets: int
    ) -> dict[int, list[int]]:
        """Integration id → failure counts per equal bucket of [since, until), oldest first;
        an old archive's counts include the live server's failures it lacks."""
        counts = await asyncio.to_thread(self._histogram, since, until, buckets)
        if self.live is None:
            return counts
        freshness = await asyncio.to_thread(self._freshness, since)
        added = await self._live_only(freshness, since, None, None)
        for integration_id, more in count_in_buckets([], added, since, until, buckets).items():
            held = counts.get(integration_id, [0] * buckets)
            counts[integration_id] = [a + b for a, b in zip(held, more, strict=True)]
        return counts


def archive_url(profile: Profile) -> str | None:
    """The profile's archive: its `archive_url`, else the default SQLite file when it exists."""
    if profile.archive_url:
        return profile.archive_url
    path = default_archive_path(profile.url)
    return sqlite_url(path) if path.exists() else None


def collect_url(profile: Profile) -> str:
    """Where `flagtui collect` writes: the profile's `archive_url` or the default file."""
    return profile.archive_url or sqlite_url(default_archive_path(profile.url))


def failure_source(
    profile: Profile,
    client: AdminClient,
    known_ids: Sequence[int] = (),
    on_listed: Callable[[list[int]], None] | None = None,
) -> FailureSource:
    """The archive when the profile has one (or its default file exists), completed from the
    server when it is old; else the server (`known_ids` and `on_listed`: see `LiveSource`)."""
    url = archive_url(profile)
    live = LiveSource(client, known_ids, on_listed)
    if url is None:
        return live
    return ArchiveSource(url, profile.url, live)
