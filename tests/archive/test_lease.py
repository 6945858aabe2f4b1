"""One collector at a time per server and archive (flagtui/archive/lease.py), in one process:
on a real PostgreSQL a second collector stands by without a request to the server, and takes
over when the first's session ends; on SQLite a second lock is refused, naming the first; the
archive says who is active (`activity`, the metrics' hook)."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Callable, Iterator

import psycopg
import pytest
from pg_databases import PG_ENV, fresh_database

from flagtui.api import AdminClient
from flagtui.archive.collector import Collector
from flagtui.archive.lease import AdvisoryLease, FileLease, activity, collect_in_turn, lease_for
from flagtui.archive.store import Archive

from .conftest import patch_many
from .ids import server_ids, stored_ids

GUARD = 180.0  # seconds: only stops a hang; each wait ends at its event


@pytest.fixture
def pg_archive_url() -> Iterator[str]:
    yield from fresh_database("collector_lock_")


async def until(what: str, done: Callable[[], bool]) -> None:
    deadline = asyncio.get_running_loop().time() + GUARD
    while not done():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.05)


def said(lines: list[str], text: str) -> Callable[[], bool]:
    return lambda: any(text in line for line in lines)


@pytest.mark.timeout(600)
async def test_a_second_collector_stands_by_and_takes_over_when_the_session_ends(
    sandbox, pg_archive_url
):
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    archives = [Archive.open(pg_archive_url, sandbox.url) for _ in range(2)]
    clients = [AdminClient(sandbox.url, sandbox.admin_token, profile=f"c{i}") for i in range(2)]
    leases = [lease_for(a) for a in archives]
    logs: list[list[str]] = [[], []]
    collectors = [
        Collector(c, a, log=log.append) for c, a, log in zip(clients, archives, logs, strict=True)
    ]
    stops = [asyncio.Event(), asyncio.Event()]
    # The first tries again an interval after it lost the lock; the second, standing by,
    # tries 20 times in that interval: it comes first.
    runs = [asyncio.create_task(collect_in_turn(collectors[0], leases[0], 2.0, stops[0]))]
    try:
        await until("the first collects", said(logs[0], "collecting every"))
        runs.append(asyncio.create_task(collect_in_turn(collectors[1], leases[1], 0.1, stops[1])))
        await until("the second stands by", said(logs[1], "standing by"))
        me = f"({socket.gethostname()}, pid {os.getpid()}, since "
        assert len(logs[1]) == 1 and logs[1][0].startswith("another collector " + me)
        assert logs[1][0].endswith(
            f"is collecting {archives[0].server} into this archive; standing by"
        )
        patch_many(sandbox, 5, "while one polls")
        await until(
            "the first stored them", lambda: set(stored_ids(archives[0])) == server_ids(sandbox)
        )
        sent = clients[0].requests_sent
        await until("the first polled again", lambda: clients[0].requests_sent > sent + 12)
        assert clients[1].requests_sent == 0  # standing by: not one request to the server
        now = activity(archives[0])
        assert now.active and now.ours and now.holder and now.holder.pid == os.getpid()

        # The first's session ends (as when PostgreSQL or the network drops it): the lock goes
        # with it; the first finds out before its next poll, the second takes over.
        first = leases[0]
        assert isinstance(first, AdvisoryLease) and first.conn is not None
        session = first.conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        with psycopg.connect(os.environ[PG_ENV], autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (session,))
        await until("the second takes over", said(logs[1], "taking over"))
        await until("the first lost it", said(logs[0], "lost the lock"))
        patch_many(sandbox, 5, "after the takeover")
        await until(
            "the second stored them", lambda: set(stored_ids(archives[1])) == server_ids(sandbox)
        )
        assert clients[1].requests_sent > 0
        ids = stored_ids(archives[1])
        assert len(ids) == len(set(ids)) == len(server_ids(sandbox))
    finally:
        for stop in stops:
            stop.set()
        await asyncio.gather(*runs, return_exceptions=True)
        for lease, archive, client in zip(leases, archives, clients, strict=True):
            lease.release()
            archive.close()
            await client.aclose()


def test_a_second_sqlite_lock_is_refused_naming_the_first_until_it_is_released(tmp_path, sandbox):
    url = f"sqlite+pysqlite:///{tmp_path / 'archive.db'}"
    first, second = (Archive.open(url, sandbox.url) for _ in range(2))
    try:
        holder, other = FileLease(first), FileLease(second)
        assert holder.take()
        assert not other.take()
        assert other.other is not None and other.other.pid == os.getpid()
        now = activity(second)
        assert now.active and now.ours and now.holder == other.other
        assert not other.take()  # closing the probe's descriptor left the holder's lock held
        holder.release()
        assert not activity(second).active  # the last one is still named
        assert activity(second).holder == other.other
        assert other.take()
        other.release()
    finally:
        first.close()
        second.close()


def test_activity_of_an_archive_never_collected_into(archive_url, sandbox):
    archive = Archive.open(archive_url, sandbox.url)
    try:
        now = activity(archive)
        assert (now.active, now.holder, now.ours) == (False, None, False)
        lease = lease_for(archive)
        assert lease.take()
        try:
            now = activity(archive)
            assert now.active and now.ours and now.holder and now.holder.pid == os.getpid()
        finally:
            lease.release()
        assert not activity(archive).active
    finally:
        archive.close()


def test_the_lock_session_is_dropped_soon_after_its_host_vanishes(pg_archive_url, sandbox):
    """Keepalives both ways: PostgreSQL ends a vanished holder's session (and its lock) in
    about a minute, and the holder finds a vanished PostgreSQL as soon."""
    archive = Archive.open(pg_archive_url, sandbox.url)
    lease = lease_for(archive)
    try:
        assert lease.take() and isinstance(lease, AdvisoryLease) and lease.conn is not None
        server_side = lease.conn.exec_driver_sql("SHOW tcp_keepalives_idle").scalar_one()
        driver = lease.conn.connection.driver_connection
        assert isinstance(driver, psycopg.Connection)
        client_side = driver.info.get_parameters()
        assert server_side == "30"  # seconds
        assert (client_side["keepalives_idle"], client_side["tcp_user_timeout"]) == ("30", "60000")
    finally:
        lease.release()
        archive.close()
