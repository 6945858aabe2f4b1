"""One collector at a time per server and archive: the lock, and who holds it.

PostgreSQL (a team's archive, collectors on several hosts): a session-level advisory lock,
held by a connection of the collector's own for as long as it collects. Its key is the first
8 bytes of the SHA-256 of the archive's schema and the server's key: advisory locks are per
database, so neither two servers nor two schemas of one database share one. A second
collector stands by and tries again every poll interval. The lock lives as long as its
session: a holder that stops, is killed (kill -9) or loses its connection loses it, and the
next try takes over. The session asks PostgreSQL for TCP keepalives (idle 30 s, then 3 probes
10 s apart), so the session of a holder whose host vanished ends within about a minute, not
the system's two hours (and the holder's side finds a vanished PostgreSQL as soon: libpq's,
`engine.py`). The holder asks its connection before each poll: one that no longer answers has
lost the lock, and it stands by like any other.

SQLite (one person's file): a second collector is refused. The lock is an exclusive `flock`
on a file beside the archive (`<archive>-collector`, 0600), because the kernel releases it
when its process ends however it ends (kill -9 included): no stale lock outlives a process.
Not a write transaction (BEGIN IMMEDIATE) held on a lock table: held for the collector's life
it would stop every other writer of the file, its own pooled connections included, and what
it said of its holder would stay uncommitted, unseen. Not a POSIX record lock (`lockf`,
fcntl's F_SETLK): the process loses those when it closes any descriptor of the file
(tests/archive/test_locks_kept.py's trap).

The holder writes who it is (host, pid, since) in the archive's `collectors` table when it
takes the lock. `activity(archive)` reads it and whether the lock is held (PostgreSQL's
`pg_locks`; a shared `flock` tried), for `flagtui collect --status` and the metrics.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from sqlalchemy import Connection, select, text
from sqlalchemy.dialects import postgresql, sqlite

from flagtui.archive import schema
from flagtui.archive.collector import Collector
from flagtui.archive.store import Archive

KEEPALIVES = (
    "tcp_keepalives_idle = 30",
    "tcp_keepalives_interval = 10",
    "tcp_keepalives_count = 3",
)
STARTING_WAIT = 2.0  # seconds a refusal waits for a new holder to say who it is


@dataclass(frozen=True)
class Holder:
    host: str
    pid: int
    since: datetime

    def __str__(self) -> str:
        return f"{self.host}, pid {self.pid}, since {self.since:%Y-%m-%d %H:%M:%S} UTC"

    def is_this_process(self) -> bool:
        return self.pid == os.getpid() and self.host == socket.gethostname()


@dataclass(frozen=True)
class Activity:
    """`active`: a collector holds the server's lock in this archive; `holder`: who it said
    it is (when not active: the last one, or None); `ours`: it is this process."""

    active: bool
    holder: Holder | None
    ours: bool


def busy_sentence(server: str, holder: Holder | None) -> str:
    who = f"another collector ({holder})" if holder else "another collector (not yet named)"
    return f"{who} is collecting {server} into this archive"


class Lease(Protocol):
    other: Holder | None  # after a `take` that failed: who holds the lock, when it said so

    def take(self) -> bool:
        """Take the lock if it is free; False: another collector holds it (`other`)."""

    def keep(self) -> bool:
        """Whether this process still holds the lock (asked before each poll)."""

    def release(self) -> None: ...


def lease_for(archive: Archive) -> Lease:
    if archive.engine.dialect.name == "postgresql":
        return AdvisoryLease(archive)
    return FileLease(archive)


def activity(archive: Archive) -> Activity:
    """Who collects the archive's server into it, from any process (one short read).

    The metrics' hook: `activity(archive).ours` is this process's `…_collector_active`."""
    if archive.engine.dialect.name == "postgresql":
        with archive.reading() as conn:
            record = _record(conn, archive.server)
            session = conn.execute(_HOLDER_SESSION, _lock_parts(_key(conn, archive.server)))
            holding = session.scalar()
        if holding is None:
            return Activity(False, record[0] if record else None, False)
        current = record if record and record[1] == holding else None
        holder = current[0] if current else None
        return Activity(True, holder, bool(holder and holder.is_this_process()))
    with archive.reading() as conn:
        found = _record(conn, archive.server)
    recorded = found[0] if found else None
    active = FileLease(archive).held_by_anyone()
    return Activity(active, recorded, bool(active and recorded and recorded.is_this_process()))


def _record(conn: Connection, server: str) -> tuple[Holder, int | None] | None:
    table = schema.collectors
    row = conn.execute(select(table).where(table.c.server == server)).first()
    if row is None:
        return None
    return Holder(row.host, row.pid, row.since), row.lock_session


def _write_record(conn: Connection, server: str, holder: Holder, session: int | None) -> None:
    table = schema.collectors
    row = {"host": holder.host, "pid": holder.pid, "since": holder.since, "lock_session": session}
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(table).values(server=server, **row)
    conn.execute(statement.on_conflict_do_update(index_elements=[table.c.server], set_=row))


def _me() -> Holder:
    return Holder(socket.gethostname(), os.getpid(), datetime.now(UTC).replace(microsecond=0))


def _key(conn: Connection, server: str) -> int:
    where = conn.execute(text("SELECT current_schema()")).scalar() or ""
    digest = hashlib.sha256(f"flagtui collector\0{where}\0{server}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _lock_parts(key: int) -> dict[str, int]:
    """A bigint advisory key as pg_locks shows it: high and low 32 bits, objsubid 1."""
    unsigned = key & 0xFFFFFFFFFFFFFFFF
    return {"high": unsigned >> 32, "low": unsigned & 0xFFFFFFFF}


_HOLDER_SESSION = text(
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    " AND classid = CAST(:high AS oid) AND objid = CAST(:low AS oid)"
)


class AdvisoryLease:
    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self.conn: Connection | None = None
        self.key = 0
        self.held = False
        self.other: Holder | None = None

    def take(self) -> bool:
        if self.held:
            return True
        if self.conn is None:
            conn = self.archive.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            for setting in KEEPALIVES:
                conn.exec_driver_sql(f"SET {setting}")
            self.key = _key(conn, self.archive.server)
            self.conn = conn
        try:
            taken = self.conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": self.key})
            if not taken.scalar():
                found = _record(self.conn, self.archive.server)
                holding = self.conn.execute(_HOLDER_SESSION, _lock_parts(self.key)).scalar()
                self.other = found[0] if found and found[1] == holding else None
                return False
            session = self.conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
            _write_record(self.conn, self.archive.server, _me(), int(session))
            self.held = True
            return True
        except Exception:
            self._drop()
            raise

    def keep(self) -> bool:
        if self.conn is None or not self.held:
            return False
        try:
            self.conn.execute(text("SELECT 1"))
            return True
        except Exception:  # the connection is gone, and the lock with it
            self._drop()
            return False

    def release(self) -> None:
        self._drop()

    def _drop(self) -> None:
        """Close the session itself (not back to the pool): the lock ends with it."""
        self.held = False
        if self.conn is not None:
            conn, self.conn = self.conn, None
            with contextlib.suppress(Exception):
                conn.invalidate()
            with contextlib.suppress(Exception):
                conn.close()


class FileLease:
    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        database = archive.engine.url.database
        self.path = (
            Path(f"{database}-collector") if database not in (None, "", ":memory:") else None
        )
        self.fd: int | None = None
        self.other: Holder | None = None

    def _open(self) -> int:
        assert self.path is not None
        return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)

    def take(self) -> bool:
        if self.fd is not None:
            return True
        if self.path is None:  # an archive in memory is this process's alone
            self.fd = -1
            return True
        deadline = time.monotonic() + STARTING_WAIT
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
            else:
                self.fd = fd
                with self.archive.engine.begin() as conn:
                    _write_record(conn, self.archive.server, _me(), None)
                return True
            # Held: by a collector, named once it has written its record, or for a moment by
            # `activity` trying it. A record of a process no longer alive is not the holder.
            with self.archive.reading() as conn:
                found = _record(conn, self.archive.server)
            self.other = found[0] if found and _alive(found[0]) else None
            if self.other is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.05)

    def keep(self) -> bool:
        return self.fd is not None

    def release(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            if fd >= 0:
                os.close(fd)  # the flock goes with the file's last descriptor

    def held_by_anyone(self) -> bool:
        if self.path is None or not self.path.exists():
            return self.fd is not None
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False


def _alive(holder: Holder) -> bool:
    """Whether the process a record names still runs; one of another host is taken as alive."""
    if holder.host != socket.gethostname():
        return True
    try:
        os.kill(holder.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def collect_in_turn(
    collector: Collector, lease: Lease, interval: float, stop: asyncio.Event
) -> None:
    """Collect while this process holds the lock; stand by, trying again every `interval`
    seconds, while another collector does. Until `stop` is set. One log line per change."""
    server = collector.archive.server
    said: tuple[str, Holder | None] | None = None
    while not stop.is_set():
        try:
            taken = await asyncio.to_thread(lease.take)
        except Exception as exc:  # the archive unreachable: tried again, said once
            if said != ("failing", None):
                reason = str(getattr(exc, "orig", None) or exc).strip().splitlines() or [""]
                collector.log(f"the archive cannot be reached to take the lock: {reason[0]}")
            said = ("failing", None)
        else:
            if taken:
                if said is not None and said[0] == "standing by":
                    other = f"the collector ({said[1]})" if said[1] else "the other collector"
                    collector.log(f"taking over: {other} stopped collecting {server}")
                collector.state = "taken over"  # the run says "collecting" again
                await collector.run(interval, stop, keep=lease.keep)
                if stop.is_set():
                    return
                # Tried again after an interval, like any collector standing by: one that was
                # standing by already takes it first.
                collector.log("lost the lock (the archive's connection dropped)")
                said = ("lost", None)
            else:
                if said != ("standing by", lease.other):
                    collector.log(f"{busy_sentence(server, lease.other)}; standing by")
                said = ("standing by", lease.other)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)
