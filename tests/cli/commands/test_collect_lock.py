"""Two `flagtui collect` processes on one archive, real processes against the sandbox: on a real
PostgreSQL one polls and the other stands by, saying who collects (its metrics say it is not
the active one), and takes over when the first is killed (kill -9), every delivery stored
exactly once; on SQLite the second is refused at once (exit 2) naming the first, and a killed
collector's lock does not outlive it. `collect --status` says which one is active."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pg_databases import fresh_database
from sqlalchemy import func, select

from flagtui.archive import schema
from flagtui.archive.location import server_key
from flagtui.archive.store import Archive

from ..processes import command_env, patch_many
from .scraped import named, samples

GUARD = 300.0  # seconds: only stops a hang on a loaded machine; each wait ends at its event
FLAGTUI = [sys.executable, "-m", "flagtui"]


class Collecting:
    """A `flagtui collect` process whose stderr lines are read as they come."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            FLAGTUI + argv, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
        )
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.lines.append("<ended>")
            self.changed.notify_all()

    def wait_for(self, text: str) -> str:
        with self.changed:
            found = self.changed.wait_for(
                lambda: any(text in line or line == "<ended>" for line in self.lines), GUARD
            )
            line = next((line for line in self.lines if text in line), None)
        if not found or line is None:
            raise AssertionError(f"no {text!r} from pid {self.proc.pid}: {self.lines}")
        return line

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(GUARD)
        self.reader.join(GUARD)
        return code


def until_stored_as_served(archive: Archive, served: set[tuple[int, int]]) -> list[tuple]:
    """The archive's (integration, delivery) keys once it holds every delivery served."""
    table = schema.deliveries
    deadline = time.monotonic() + GUARD
    while True:
        with archive.reading() as conn:
            rows = conn.execute(select(table.c.integration_id, table.c.delivery_id)).all()
        if {(int(a), int(b)) for a, b in rows} >= served or time.monotonic() > deadline:
            return [(int(a), int(b)) for a, b in rows]
        time.sleep(0.2)


def served_ids(sandbox) -> set[tuple[int, int]]:
    with contextlib.closing(sqlite3.connect(sandbox.db_path)) as conn:
        return {tuple(r) for r in conn.execute("SELECT addon_id, id FROM integration_events")}


def failed_count(archive: Archive) -> int:
    table = schema.deliveries
    with archive.reading() as conn:
        found = select(func.count()).select_from(table).where(schema.FAILED)
        return int(conn.execute(found).scalar_one())


def status(env: dict[str, str], *profile: str) -> dict:
    done = subprocess.run(
        [*FLAGTUI, "collect", *profile, "--status", "-o", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def active(collecting: Collecting) -> float:
    """Its `flagtui_collector_active`, scraped from the metrics URL it logged."""
    url = collecting.wait_for("metrics at ").split("metrics at ")[1].split()[0]
    found = samples(httpx.get(url, timeout=GUARD).text)
    (value,) = named(found, "flagtui_collector_active").values()
    return value


@pytest.fixture
def pg_archive_url() -> Iterator[str]:
    yield from fresh_database("collector_lock_")


@pytest.mark.slow  # two collectors, a kill and a takeover: the full suite's, not the inner loop's
@pytest.mark.timeout(900)
def test_on_postgresql_one_collects_the_other_stands_by_and_takes_over_after_kill_9(
    cli_env: Path, sandbox, server, pg_archive_url
):
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    (cli_env / "config.toml").write_text(
        f'[profiles.team]\nurl = "{sandbox.url}"\narchive_url = "{pg_archive_url}"\n'
    )
    env = command_env(cli_env, sandbox)
    argv = ["collect", "-P", "team", "--interval", "1", "--metrics", "0"]
    first = Collecting(argv, env)
    second: Collecting | None = None
    archive = Archive.open(pg_archive_url, sandbox.url)
    try:
        first.wait_for("collecting every")
        second = Collecting(argv, env)
        standing = second.wait_for("standing by")
        assert standing == (
            f"flagtui collect: another collector ({socket.gethostname()}, pid {first.proc.pid},"
            f" since {standing.split(', since ')[1].split(')')[0]}) is collecting"
            f" {server_key(sandbox.url)} into this archive; standing by"
        )
        assert status(env, "-P", "team")["pid"] == first.proc.pid
        assert (active(first), active(second)) == (1.0, 0.0)
        once = subprocess.run(
            [*FLAGTUI, "collect", "-P", "team", "--once", "-o", "table"],
            env=env,
            capture_output=True,
            text=True,
            timeout=GUARD,
        )
        assert once.returncode == 2, once.stderr
        assert f"pid {first.proc.pid}," in once.stderr
        assert once.stderr.strip().endswith(": --once never waits; stop that one first")

        patch_many(server, 20, "two collectors")  # integration 5's deliveries all fail
        served = served_ids(sandbox)
        rows = until_stored_as_served(archive, served)
        assert sorted(rows) == sorted(served)  # each exactly once: none missing, none twice

        first.proc.send_signal(signal.SIGKILL)
        assert first.proc.wait(GUARD) == -signal.SIGKILL
        patch_many(server, 20, "after the kill")
        second.wait_for("taking over")
        second.wait_for("collecting every")
        served = served_ids(sandbox)
        rows = until_stored_as_served(archive, served)
        assert sorted(rows) == sorted(served)
        assert failed_count(archive) >= 40
        now = status(env, "-P", "team")
        assert (now["active"], now["pid"]) == (True, second.proc.pid)
        assert active(second) == 1.0
        third = Collecting(argv, env)
        assert f"pid {second.proc.pid}," in third.wait_for("standing by")
        assert third.stop() == 0  # SIGTERM ends a wait for the lock at once, as any wait
        assert third.lines[-2:] == ["flagtui collect: stopped", "<ended>"]
        assert second.stop() == 0
        assert not any("poll failed" in line for line in second.lines), second.lines
    finally:
        archive.close()
        for proc in (first, second):
            if proc is not None and proc.proc.poll() is None:
                proc.proc.kill()
                proc.proc.wait()


def test_on_sqlite_a_second_collector_is_refused_naming_the_first(cli_env: Path, sandbox):
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    first = Collecting(["collect", "--interval", "1"], env)
    try:
        first.wait_for("collecting every")
        for once in ([], ["--once"]):
            refused = subprocess.run(
                [*FLAGTUI, "collect", "--interval", "1", *once, "-o", "table"],
                env=env,
                capture_output=True,
                text=True,
                timeout=GUARD,
            )
            assert refused.returncode == 2, refused.stderr
            line = refused.stderr.strip()
            assert line.startswith(
                f"flagtui: another collector ({socket.gethostname()}, pid {first.proc.pid}, since "
            )
            assert f") is collecting {server_key(sandbox.url)} into this archive (sqlite" in line
            assert line.endswith(
                ": a SQLite archive has one collector at a time; stop that one first"
            )
        now = status(env)
        assert (now["active"], now["pid"]) == (True, first.proc.pid)

        first.proc.send_signal(signal.SIGKILL)
        first.proc.wait(GUARD)
        now = status(env)
        assert (now["active"], now["pid"]) == (False, first.proc.pid)  # the last one, named
        after = Collecting(["collect", "--interval", "1"], env)
        try:
            after.wait_for("collecting every")  # the dead one's lock went with it
            assert status(env)["pid"] == after.proc.pid
        finally:
            assert after.stop() == 0
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
            first.proc.wait()
