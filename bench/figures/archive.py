"""8. The delivery archive: the failures view's reads on 1,000,000 deliveries across 20
integrations, and the collector's CPU time per poll of 20 integrations (against the sandbox).

The archive is built once with bulk inserts (a few executemany transactions, no collector) in
the layout migration 6 made (events shared by the 20 deliveries of one flag change, times in
microseconds) into .tmp/bench/archive-<hash>.db; the hash covers the archive's schema and
migrations, so a change there rebuilds it. 30 days of deliveries, newest now at build time;
the reads ask for the 24 hours before the newest delivery, so a cached archive measures the
same window.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bench.harness import CACHE, PY, ROOT, Sandbox, log, median, rnd
from flagtui.api import AdminClient
from flagtui.archive import schema
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.micros import to_micros
from flagtui.archive.source import ArchiveSource
from flagtui.archive.store import Archive
from flagtui.sandbox import create_database
from flagtui.triage.grouping import error_key

SERVER = "http://bench.invalid:4242"
DELIVERIES = 1_000_000
INTEGRATIONS = 20
DAYS = 30
FAILURE_RATE = 0.12
ERRORS = [
    "Webhook request failed with status code: 500",
    "Webhook request failed with status code: 503",
    "Webhook request failed: network timeout after 10000 ms",
    "Datadog Events API request failed with status code: 403",
    "Some (1 of 2) Slack App messages were sent successfully. Errors: channel_not_found (#ops)",
]
ARCHIVE_TARGETS = {
    "archive_first_page_24h_s": ("<=", 0.3),
    "archive_grouped_24h_s": ("<=", 0.5),
    "archive_mb_per_million": ("<=", 150),  # issue 26
}
ARCHIVE_KEYS = [
    "archive_first_page_24h_s", "archive_first_page_cold_s", "archive_grouped_24h_s",
    "archive_histogram_24h_s", "archive_failures_in_24h", "archive_mb_per_million",
    "collector_cpu_ms_idle_poll", "collector_cpu_ms_100_new", "collect_stop_said_s",
    "collect_stop_exit_s",
    # archive_scale.py, full runs only
    "archive_first_page_24h_10m_s", "archive_first_page_cold_10m_s", "archive_grouped_24h_10m_s",
    "archive_10m_over_1m", "archive_failures_in_24h_10m", "archive_10m_build_s",
]  # fmt: skip


def _archive_version(deliveries: int, days: int) -> str:
    h = hashlib.sha256(repr((deliveries, INTEGRATIONS, days, FAILURE_RATE, ERRORS)).encode())
    archive = ROOT / "flagtui" / "archive"
    for path in [archive / "schema.py", *sorted((archive / "migrations").glob("*.py"))]:
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def archive_database(deliveries: int = DELIVERIES, days: int = DAYS) -> tuple[Path, float | None]:
    """The cached archive of `deliveries` over `days`, and the seconds building it took now
    (None: it was cached)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    size = "" if deliveries == DELIVERIES else f"{deliveries // 1_000_000}m-"
    cached = CACHE / f"archive-{size}{_archive_version(deliveries, days)}.db"
    if cached.exists():
        return cached, None
    pattern = f"archive-{size}*.db*" if size else "archive-[0-9a-f]*.db*"
    for old in CACHE.glob(pattern):
        old.unlink()
    part = cached.with_suffix(".part")
    part.unlink(missing_ok=True)
    log(f"building the {deliveries:,}-delivery archive into {cached} (once)")
    t0 = time.perf_counter()
    Archive.open(sqlite_url(part), SERVER).close()  # the schema, through the migrations
    newest = datetime.now(UTC)
    step = timedelta(days=days) / deliveries
    rng = random.Random(13)
    with contextlib.closing(sqlite3.connect(part)) as conn, conn:
        conn.execute("PRAGMA journal_mode=DELETE")  # one file, complete once closed
        conn.execute("PRAGMA synchronous=OFF")
        conn.executemany(
            "INSERT INTO integrations VALUES (?,?,?,?,?,?)",
            [(SERVER, i, "webhook", f"bench hook {i}", True, None) for i in range(1, 21)],
        )
        conn.execute("INSERT INTO servers (id, url) VALUES (1, ?)", (SERVER,))
        events, rows = [], []
        for n in range(deliveries):
            # One flag change is delivered to every integration: 20 deliveries share its event.
            integration = n % INTEGRATIONS + 1
            failed = rng.random() < FAILURE_RATE
            details = rng.choice(ERRORS) if failed else "Webhook request was successful"
            when = newest - step * (deliveries - n)
            micros = to_micros(when)
            change = n // INTEGRATIONS
            if integration == 1:
                event = {
                    "id": change,
                    "createdAt": when.isoformat(),
                    "type": "feature-metadata-updated",
                    "createdBy": "bench",
                    "project": "default",
                    "featureName": f"f-{change % 997}",
                }
                events.append((change + 1, 1, change, json.dumps(event)))
            rows.append(
                (1, integration, n + 1, micros, "failed" if failed else "success", failed,
                 details, error_key(details) if failed else "", change + 1, None, micros)
            )  # fmt: skip
            if len(rows) == 100_000:
                conn.executemany("INSERT INTO events VALUES (?,?,?,?)", events)
                conn.executemany("INSERT INTO deliveries VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
                events.clear()
                rows.clear()
        conn.execute("ANALYZE")
    part.rename(cached)
    took = time.perf_counter() - t0
    log(f"archive built in {took:.1f}s")
    return cached, took


def _timed(runs: int, read: Any) -> list[float]:
    """Wall time of each of `runs` awaits of `read()`, in one event loop (as the TUI's)."""

    async def measure() -> list[float]:
        xs = []
        for _ in range(runs):
            t0 = time.perf_counter()
            await read()
            xs.append(time.perf_counter() - t0)
        return xs

    return asyncio.run(measure())


def bench_archive_reads(tmp: Path, runs: int) -> dict[str, Any]:
    path = tmp / "archive.db"
    shutil.copyfile(archive_database()[0], path)
    # The file as built (bulk inserts into a fresh file): its size is what the rows cost.
    mb_per_million = path.stat().st_size / 1e6 * (1_000_000 / DELIVERIES)
    source = ArchiveSource(sqlite_url(path), SERVER)
    with source.archive.reading() as conn:
        newest = conn.execute(select(func.max(schema.deliveries.c.created_at))).scalar_one()
    since = newest - timedelta(hours=24)
    cold = _timed(1, lambda: source.window(since))[0]
    first_page = _timed(runs, lambda: source.window(since))
    grouped = _timed(runs, lambda: source.grouped(since))
    histogram = _timed(runs, lambda: source.histogram(since, newest, 48))
    window = asyncio.run(source.window(since))
    source.close()
    log(f"archive: first page {median(first_page):.3f}s, grouped {median(grouped):.3f}s")
    return {
        "archive_first_page_24h_s": rnd(median(first_page)),
        "archive_first_page_cold_s": rnd(cold),
        "archive_grouped_24h_s": rnd(median(grouped)),
        "archive_histogram_24h_s": rnd(median(histogram)),
        "archive_failures_in_24h": window.total,
        "archive_mb_per_million": rnd(mb_per_million, 1),
    }


def _collector_sandbox(tmp: Path) -> Path:
    """A demo database with 20 webhooks, each receiving every flag's metadata update."""
    path = tmp / "collector.db"
    create_database(path, size="demo")
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM addons")
        conn.execute("DELETE FROM integration_events")
        conn.executemany(
            "INSERT INTO addons (id, provider, description, enabled, events, projects,"
            " environments, parameters, created_at, behaviour) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                (i, "webhook", f"bench hook {i}", 1, '["feature-metadata-updated"]', "[]", "[]",
                 json.dumps({"url": f"https://hooks.example/{i}"}), "2025-01-01T00:00:00.000Z",
                 "flaky-endpoint")
                for i in range(1, INTEGRATIONS + 1)
            ],
        )  # fmt: skip
    return path


async def _cpu_of_polls(sb: Sandbox, archive: Archive, runs: int, new: int) -> list[float]:
    flag = sb.first_feature()
    project = sb.get("/api/admin/projects")["projects"][0]["id"]
    xs = []
    async with AdminClient(sb.url, sb.token, profile="bench") as client:
        collector = Collector(client, archive, log=lambda _: None)
        await collector.poll()
        for run in range(runs):
            for i in range(new // INTEGRATIONS):
                sb.http.patch(
                    f"/api/admin/projects/{project}/features/{flag}",
                    json=[{"op": "replace", "path": "/description", "value": f"{run}-{i}"}],
                ).raise_for_status()
            t0 = time.process_time()
            result = await collector.poll()
            xs.append(time.process_time() - t0)
            assert result.stored == new, (result.stored, new)
    return xs


def _stop_times(sb: Sandbox, tmp: Path) -> tuple[float, float]:
    """A `flagtui collect` process waiting for its next poll gets SIGTERM: seconds until it
    says "stopped", and until it has exited (the interpreter's own teardown included)."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp),
        "XDG_DATA_HOME": str(tmp / "collect-data"),
        "FLAGTUI_CONFIG": str(tmp / "none.toml"),
        "UNLEASH_URL": sb.url,
        "UNLEASH_API_TOKEN": sb.token,
    }
    argv = [PY, "-m", "flagtui", "collect", "--interval", "3600"]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stderr is not None
    while "collecting every" not in proc.stderr.readline():
        pass
    sent = time.perf_counter()
    proc.send_signal(signal.SIGTERM)
    while "stopped" not in proc.stderr.readline():
        pass
    said = time.perf_counter() - sent
    assert proc.wait() == 0
    return said, time.perf_counter() - sent


def bench_collector(tmp: Path, runs: int) -> dict[str, Any]:
    sb = Sandbox(_collector_sandbox(tmp), "demo")
    archive = Archive.open(sqlite_url(tmp / "collector-archive.db"), sb.url)
    try:
        idle = asyncio.run(_cpu_of_polls(sb, archive, runs, 0))
        busy = asyncio.run(_cpu_of_polls(sb, archive, runs, 100))
        stops = [_stop_times(sb, tmp) for _ in range(runs)]
    finally:
        archive.close()
        sb.close()
    ms = {"idle": median(idle) * 1000, "new": median(busy) * 1000}
    said, exited = median([s for s, _ in stops]), median([e for _, e in stops])
    log(f"collector CPU per poll: idle {ms['idle']:.1f} ms, 100 new {ms['new']:.1f} ms")
    log(f"collect stop: said {said:.3f} s, exited {exited:.3f} s after SIGTERM")
    return {
        "collector_cpu_ms_idle_poll": rnd(ms["idle"], 1),
        "collector_cpu_ms_100_new": rnd(ms["new"], 1),
        "collect_stop_said_s": rnd(said),
        "collect_stop_exit_s": rnd(exited),
    }


def bench_archive(tmp: Path, runs: int, *, scale: bool = False) -> dict[str, Any]:
    """`scale` (full runs): the reads on 10,000,000 deliveries too (archive_scale.py)."""
    results = bench_archive_reads(tmp, runs)
    if scale:
        from bench.figures.archive_scale import bench_archive_scale

        results |= bench_archive_scale(runs, results["archive_first_page_24h_s"])
    return results | bench_collector(tmp, runs)
