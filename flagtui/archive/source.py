"""`ArchiveSource`: the failures view and `flagtui failures` reading the archive; and
`failure_source`, which picks the archive when there is one and the live server otherwise.

The database calls are synchronous; each async method runs them in a worker thread
(`asyncio.to_thread`) so the TUI's event loop never waits on the disk or the network. The
database layer (SQLAlchemy) is imported there too, at the first read: choosing a source, and
starting the TUI or a command, never loads it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from flagtui.api import AdminClient
from flagtui.archive.location import default_archive_path, sqlite_url
from flagtui.config import Profile
from flagtui.triage.records import FailureWindow, Origin
from flagtui.triage.source import PAGE, FailureSource, LiveSource

if TYPE_CHECKING:
    from flagtui.archive.store import Archive


class ArchiveSource:
    """Failures from an archive; opened (and migrated) at the first read, in a worker thread.
    `archive_url` is a SQLAlchemy-style URL (`sqlite:///…`, `postgresql://…`); `server_url`
    the Unleash server whose deliveries are read."""

    origin: Origin = "archive"

    def __init__(self, archive_url: str, server_url: str) -> None:
        self.archive_url = archive_url
        self.server_url = server_url
        self._archive: Archive | None = None
        self._opening = threading.Lock()

    @property
    def archive(self) -> Archive:
        from flagtui.archive.store import Archive

        with self._opening:
            if self._archive is None:
                self._archive = Archive.open(self.archive_url, self.server_url)
            return self._archive

    def close(self) -> None:
        if self._archive is not None:
            self._archive.close()

    def _window(
        self, since: datetime | None, integration_id: int | None, key: str | None, limit: int
    ) -> FailureWindow:
        from flagtui.archive import reads

        server = self.archive.server
        with self.archive.reading() as conn:
            refs = reads.integrations(conn, server)
            by_id = {r.id: r for r in refs}
            found, total, skipped = reads.failures(
                conn, server, by_id, since, integration_id, key, limit
            )
            gaps = reads.gaps(conn, server, since, integration_id)
            oldest = reads.oldest_stored(conn, server)
            unreadable = reads.unreadable_times(conn, server) + skipped
        return FailureWindow(
            "archive",
            since,
            refs,
            found,
            gaps=gaps,
            covers_since=oldest,
            total=total,
            unreadable=unreadable,
        )

    def _grouped(self, since: datetime | None) -> FailureWindow:
        from flagtui.archive import reads

        server = self.archive.server
        with self.archive.reading() as conn:
            refs = reads.integrations(conn, server)
            groups, total = reads.groups(conn, server, {r.id: r for r in refs}, since)
            gaps = reads.gaps(conn, server, since, None)
            oldest = reads.oldest_stored(conn, server)
            unreadable = reads.unreadable_times(conn, server)
        return FailureWindow(
            "archive",
            since,
            refs,
            groups=groups,
            gaps=gaps,
            covers_since=oldest,
            total=total,
            unreadable=unreadable,
        )

    def _histogram(self, since: datetime, until: datetime, buckets: int) -> dict[int, list[int]]:
        from flagtui.archive import reads

        with self.archive.reading() as conn:
            return reads.histogram(conn, self.archive.server, since, until, buckets)

    async def window(
        self,
        since: datetime | None,
        *,
        integration_id: int | None = None,
        key: str | None = None,
        limit: int = PAGE,
    ) -> FailureWindow:
        return await asyncio.to_thread(self._window, since, integration_id, key, limit)

    async def grouped(self, since: datetime | None) -> FailureWindow:
        return await asyncio.to_thread(self._grouped, since)

    async def histogram(
        self, since: datetime, until: datetime, buckets: int
    ) -> dict[int, list[int]]:
        """Integration id → failure counts per equal bucket of [since, until), oldest first."""
        return await asyncio.to_thread(self._histogram, since, until, buckets)


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
    """The archive when the profile has one (or its default file exists), else the server
    (`known_ids` and `on_listed`: see `LiveSource`)."""
    url = archive_url(profile)
    if url is None:
        return LiveSource(client, known_ids, on_listed)
    return ArchiveSource(url, profile.url)
