"""`ArchiveReader`: the archive's answers to the failures view and `flagtui failures`, read
synchronously, without the live server. `source.ArchiveSource` runs them in worker threads and
completes an old archive's answer from the server; `flagtui failures` reads a fresh archive with
it alone, without an event loop (asyncio costs a command's start more than the reads).

A SQLite archive at the newest schema version is read with the standard library's sqlite3
(`sqlite_reads`); SQLAlchemy is imported only to migrate an older one, and for PostgreSQL, at
the first read.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from types import ModuleType
from typing import TYPE_CHECKING, Any

from flagtui.archive import sqlite_reads
from flagtui.archive.location import server_key
from flagtui.triage.merge import delivery_key
from flagtui.triage.records import Failure, FailureGroup, FailureWindow, IntegrationRef

if TYPE_CHECKING:
    from flagtui.archive.store import Archive


class ArchiveReader:
    """Reads an archive; opened (and migrated) at the first read. `archive_url` is a
    SQLAlchemy-style URL (`sqlite:///…`, `postgresql://…`); `server_url` the Unleash server
    whose deliveries are read. Safe to use from several threads, one read at a time."""

    def __init__(
        self,
        archive_url: str,
        server_url: str,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.archive_url = archive_url
        self.server_url = server_url
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
        # Here, not at the top: it loads pydantic and SQLAlchemy
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
    def reading(self) -> Iterator[tuple[ModuleType, Any]]:
        """The reads (`sqlite_reads` or `queries`) and a connection holding one snapshot."""
        conn = self._sqlite_connection()
        if conn is not None:
            with self._one_read, sqlite_reads.reading(conn):
                yield sqlite_reads, conn
            return
        # Here, not at the top: it loads SQLAlchemy
        from flagtui.archive import queries

        with self.archive.reading() as engine_conn:
            yield queries, engine_conn

    def window(
        self, since: datetime | None, integration_id: int | None, key: str | None, limit: int
    ) -> FailureWindow:
        server = self.server
        with self.reading() as (queries, conn):
            refs = queries.integrations(conn, server)
            by_id = {r.id: r for r in refs}
            found, total, skipped = queries.failures(
                conn, server, by_id, since, integration_id, key, limit
            )
            window = FailureWindow("archive", since, refs, found, total=total)
            self._describe(queries, conn, window, integration_id)
        window.unreadable += skipped
        return window

    def grouped(self, since: datetime | None, integration_id: int | None = None) -> FailureWindow:
        server = self.server
        with self.reading() as (queries, conn):
            refs = queries.integrations(conn, server)
            by_id = {r.id: r for r in refs}
            groups, total = queries.groups(conn, server, by_id, since, integration_id)
            groups = [self._with_newest(queries, conn, by_id, since, g) for g in groups]
            window = FailureWindow("archive", since, refs, groups=groups, total=total)
            self._describe(queries, conn, window, integration_id)
        return window

    def _with_newest(
        self,
        queries: ModuleType,
        conn: Any,
        refs: dict[int, IntegrationRef],
        since: datetime | None,
        group: FailureGroup,
    ) -> FailureGroup:
        """The group with its newest failure (its triggering change): one indexed read."""
        page, _, _ = queries.failures(
            conn, self.server, refs, since, group.integration.id, group.error_key, 1
        )
        return FailureGroup(*group.fields, newest=page[0] if page else None)

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
        window.clock_fault = self.clock_fault(window.collected_until)

    def freshness(self, since: datetime) -> FailureWindow:
        """An answer holding only the integrations and the archive's freshness: what deciding
        to read the live server needs, without the window's own reads."""
        server = self.server
        with self.reading() as (queries, conn):
            refs = queries.integrations(conn, server)
            until = queries.collected_until(conn, server, None)
        window = FailureWindow("archive", since, refs, collected_until=until, as_of=until)
        window.clock_fault = self.clock_fault(until)
        return window

    def clock_fault(self, until: datetime | None) -> str | None:
        """What is wrong with a last collection later than now (a collector whose clock runs
        ahead); None when it is not."""
        if until is None or until <= self.clock():
            return None
        return (
            f"the archive's last collection ({until:%Y-%m-%d %H:%M:%S} UTC) is later than now:"
            " the collector's clock runs ahead"
        )

    def not_stored(self, failures: list[Failure]) -> list[Failure]:
        keys = [(f.integration.id, int(f.delivery.id)) for f in failures if f.delivery.id.isdigit()]
        with self.reading() as (queries, conn):
            held = {(i, str(d)) for i, d in queries.stored(conn, self.server, keys)}
        return [f for f in failures if delivery_key(f) not in held]

    def newest_id(self) -> int | None:
        with self.reading() as (queries, conn):
            return queries.newest_id(conn, self.server)

    def histogram(self, since: datetime, until: datetime, buckets: int) -> dict[int, list[int]]:
        with self.reading() as (queries, conn):
            return queries.histogram(conn, self.server, since, until, buckets)
