"""8b. The archive as it grows (full runs only): the failures view's 24-hour reads on
10,000,000 deliveries, 300 days at the rate of `archive`'s 1,000,000 in 30, so the window holds
as many failures. The reads go through the time indexes, so they should stay flat:
`archive_10m_over_1m` divides the 10M first page by the 1M one of the same run.

The 10M archive (about 1.4 GB) is built once into the cache, like the 1M one, and read where it
lies (the sqlite3 reads write nothing); `archive_10m_build_s` is how long building it took, when
this run built it (null when it was cached).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from datetime import timedelta
from typing import Any

from bench.figures.archive import SERVER, _timed, archive_database
from bench.harness import log, median, rnd
from flagtui.archive.location import sqlite_url
from flagtui.archive.micros import from_micros
from flagtui.archive.source import ArchiveSource

LARGE = 10_000_000
LARGE_DAYS = 300


def bench_archive_scale(runs: int, first_page_1m: float | None) -> dict[str, Any]:
    path, took = archive_database(LARGE, LARGE_DAYS)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        newest = from_micros(conn.execute("SELECT max(created_at) FROM deliveries").fetchone()[0])
    since = newest - timedelta(hours=24)
    source = ArchiveSource(sqlite_url(path), SERVER)
    try:
        cold = _timed(1, lambda: source.window(since))[0]
        first_page = median(_timed(runs, lambda: source.window(since)))
        grouped = median(_timed(runs, lambda: source.grouped(since)))
        window = asyncio.run(source.window(since))
    finally:
        source.close()
    log(f"archive 10M: first page {first_page:.3f}s, grouped {grouped:.3f}s")
    return {
        "archive_first_page_24h_10m_s": rnd(first_page),
        "archive_first_page_cold_10m_s": rnd(cold),
        "archive_grouped_24h_10m_s": rnd(grouped),
        "archive_10m_over_1m": rnd(first_page / first_page_1m, 2) if first_page_1m else None,
        "archive_failures_in_24h_10m": window.total,
        "archive_10m_build_s": None if took is None else rnd(took, 1),
    }
