"""`flagtui collect` against a real sandbox that forgets like Unleash; SIGTERM and a server that
goes away, with real processes and servers. (`flagtui failures` reading what it collected:
test_failures*.py.)"""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
import socket
import subprocess
import sys

import pytest
from sqlalchemy import select

from flagtui.api import AdminClient
from flagtui.archive import schema
from flagtui.archive.collector import Collector
from flagtui.archive.location import default_archive_path, sqlite_url
from flagtui.archive.store import Archive
from flagtui.sandbox import SandboxServer

from ..processes import command_env, patch_many


def test_collect_once_on_a_read_only_profile(run, cli_env, sandbox, server):
    (cli_env / "config.toml").write_text(
        f'[profiles.ro]\nurl = "{sandbox.url}"\nread_only = true\n'
    )
    patch_many(server, 3, "ro")
    result = run("collect", "-P", "ro", "--once", "-o", "json")
    assert result.code == 0, result.err
    assert result.json["stored"] >= 9 and result.json["gaps"] == 0
    assert default_archive_path(sandbox.url).exists()


def stopped_by_sigterm(proc: subprocess.Popen[str], ready: str) -> tuple[int, str]:
    """Once `ready` is on stderr, SIGTERM; the exit code and the last line on stderr. No time
    bound here (a loaded machine is slow, not wrong): a collector that never stopped would be
    ended by the suite's timeout, a failure."""
    assert proc.stderr is not None
    for line in iter(proc.stderr.readline, ""):
        if ready in line:
            break
    else:
        raise AssertionError(f"the collector ended before saying {ready!r}")
    proc.send_signal(signal.SIGTERM)
    code = proc.wait()
    return code, proc.stderr.read().strip().splitlines()[-1]


def test_sigterm_stops_a_collector_waiting_for_its_next_poll(cli_env, sandbox):
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    argv = [sys.executable, "-m", "flagtui", "collect", "--interval", "3600"]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
    try:
        # An hour's wait ahead: only a stop that ends the wait ends the process.
        assert stopped_by_sigterm(proc, "collecting every") == (0, "flagtui collect: stopped")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_sigterm_stops_a_collector_waiting_for_an_answer(cli_env, sandbox):
    """A server that accepts the connection and never answers, a timeout of 10 minutes: the
    request in flight is dropped, not waited for."""
    with socket.create_server(("127.0.0.1", 0)) as silent:
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        (cli_env / "config.toml").write_text(f'[profiles.silent]\nurl = "{url}"\ntimeout = 600\n')
        env = command_env(cli_env, sandbox) | {
            "XDG_DATA_HOME": str(cli_env / "data"),
            "UNLEASH_URL": url,
        }
        argv = [sys.executable, "-m", "flagtui", "collect", "-P", "silent"]
        proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        try:
            held, _ = silent.accept()  # the first request is on its way, and will wait
            with held:
                assert stopped_by_sigterm(proc, "into") == (0, "flagtui collect: stopped")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.timeout(600)  # waits for events; a loaded machine takes minutes
async def test_the_collector_survives_the_server_going_away(sandbox_db, tmp_path):
    first = SandboxServer(sandbox_db).start()
    port, token = first.port, first.admin_token
    lines: list[str] = []
    archive = Archive.open(sqlite_url(tmp_path / "a.db"), first.url)
    stop = asyncio.Event()

    async def until(text: str, count: int = 1) -> None:
        # The minute only guards against a hang: the line comes when the poll does.
        deadline = asyncio.get_running_loop().time() + 60
        while asyncio.get_running_loop().time() < deadline:
            if sum(text in line for line in lines) >= count:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"no {text!r} in {lines}")

    # A minute: a timeout only guards against a hang (a loaded machine answered later than 1 s).
    async with AdminClient(first.url, token, profile="away", timeout=60) as client:
        collector = Collector(client, archive, log=lines.append)
        running = asyncio.create_task(collector.run(0.2, stop))
        await until("collecting")
        await asyncio.to_thread(first.stop)
        await until("poll failed")
        failed_once = client.requests_sent
        while client.requests_sent == failed_once:  # a poll fails again (1 s backoff)
            await asyncio.sleep(0.05)
        back = await asyncio.to_thread(SandboxServer(sandbox_db, port=port).start)
        try:
            await until("collecting", 2)
        finally:
            stop.set()
            await running
            await asyncio.to_thread(back.stop)
    archive.close()
    # One line per change of state, however many polls failed: a failure said again only when
    # it changed (a slow machine may see a timeout as well as a refused connection).
    assert "collecting" in lines[0] and "collecting" in lines[-1]
    assert all("poll failed" in line for line in lines[1:-1]) and len(lines) >= 3
    assert all(a != b for a, b in itertools.pairwise(lines))


def test_an_archive_that_cannot_be_opened_is_one_line_and_exit_6(run, cli_env, sandbox):
    (cli_env / "config.toml").write_text(
        f'[profiles.pg]\nurl = "{sandbox.url}"\n'
        'archive_url = "postgresql://flagtui:hunter2@127.0.0.1:9/archive"\n'
    )
    result = run("collect", "-P", "pg", "--once", "-o", "table")
    assert result.code == 6
    assert result.line.startswith("flagtui: the delivery archive postgresql://flagtui:***@")
    assert "hunter2" not in result.err


def test_bad_intervals_name_the_option_and_the_limit(run):
    for interval in ("0.5", "nan", "7200"):
        result = run("collect", "--interval", interval, "-o", "table")
        assert result.code == 2
        assert result.line.startswith("flagtui: --interval: seconds from 1 to 3600")


def test_two_collector_processes_on_a_new_archive_open_it_and_store_each_delivery_once(
    cli_env, sandbox, server
):
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    patch_many(server, 20, "two processes")
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    argv = [sys.executable, "-m", "flagtui", "collect", "--once", "-o", "json"]
    procs = [
        subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [proc.communicate(timeout=120) for proc in procs]
    # Both open the new archive (a failure to would be exit 6); one collects at a time: the
    # other, if it came while the first held the archive, is refused saying so (exit 2).
    codes = [proc.returncode for proc in procs]
    assert 0 in codes and set(codes) <= {0, 2}, outs
    for code, (_, err) in zip(codes, outs, strict=True):
        assert code == 0 or "is collecting" in err, err
    stored = sum(json.loads(out)["stored"] for out, _ in outs if out)
    archive = Archive.open(sqlite_url(default_archive_path(sandbox.url)), sandbox.url)
    try:
        with archive.reading() as conn:
            rows = conn.execute(
                select(schema.deliveries.c.integration_id, schema.deliveries.c.delivery_id)
            ).all()
    finally:
        archive.close()
    assert len(rows) == len(set(rows)) == stored  # the two split the work, none twice
