"""flagtui benchmarks: `python -m bench.run [--quick] [--out FILE.json]` (also `./dev bench`).

Starts its own sandboxes (bench/sandbox_server.py, subprocesses on free loopback ports, databases
in a temp dir; the large data set is generated once and cached under .tmp/bench/ keyed by a hash
of the sandbox's data-generation code), drives the real `flagtui` console script and the
yardstick (bench/minimal_app.py) in pseudo-terminals read through pyte, and prints a table.
Every ratio is measured side by side in the same run. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.figures.archive import ARCHIVE_KEYS, ARCHIVE_TARGETS, bench_archive
from bench.figures.archive_view import bench_archive_view
from bench.figures.client import bench_client
from bench.figures.commands import COMMAND_KEYS, COMMAND_TARGETS, bench_commands
from bench.figures.export import EXPORT_TARGETS, bench_export
from bench.figures.first_page import bench_first_page
from bench.figures.keys import bench_keys
from bench.figures.network import bench_network, bench_network_tls
from bench.figures.preview import bench_preview
from bench.figures.requests import bench_requests
from bench.figures.rss import bench_rss
from bench.figures.startup import bench_startup
from bench.figures.unleash import bench_unleash
from bench.figures.web import bench_web, missing
from bench.harness import COLS, ROWS, Sandbox, data_version, large_database, log

TARGETS = {
    "startup_ratio": ("<=", 1.2),  # issue 45 (1.1 in issue 26)
    "startup_cold_frame_ratio": ("<=", 1.3),  # issue 45: the first frame, then the own page
    "startup_round_trips": ("<=", 1.0),
    "failures_round_trips": ("<=", 2.0),
    "cmd_feature_list_round_trips": ("<=", 1.0),  # curl + jq of its two URLs: 2
    "key_latency_ms_p50": ("<=", 10.0),
    "key_latency_ratio": ("<=", 1.2),
    "pagedown_over_down_p50": ("<=", 2.0),
    "large_first_page_s": ("<=", 0.5),
    "large_launch_first_rows_s": ("<=", 0.4),  # issue 26
    "rss_mb_large": ("<=", 150.0),
    "client_overhead_ratio": ("<=", 1.3),
    "sandbox_vs_unleash_rps": (">=", 1.0),
    "preview_before_after_ms": ("<=", 20.0),
    "preview_population_10k_s": ("<=", 0.5),
    **ARCHIVE_TARGETS,
    "archive_view_first_use_s": ("<=", 0.15),  # issue 26
    **COMMAND_TARGETS,
    **EXPORT_TARGETS,  # issue 47: 50,000 flags a side
}


# -- the run ---------------------------------------------------------------------------------


def verdict(key: str, value: Any) -> str:
    if key not in TARGETS:
        return ""
    op, target = TARGETS[key]
    if value is None:
        return "n/a"
    ok = value <= target if op == "<=" else value >= target
    return f"{'ok' if ok else 'MISSED'} ({op} {target:g})"


def print_table(results: dict[str, Any]) -> None:
    keys = [
        "startup_s", "startup_minimal_s", "startup_ratio", "startup_cached_s", "startup_fresh_s",
        "startup_cold_frame_s", "startup_cold_frame_ratio", "startup_cold_s", "startup_cold_ratio",
        "startup_cold_live_s",
        "startup_cold_live_ratio",
        "startup_round_trips", "startup_launch_round_trips", "startup_cached_round_trips",
        "failures_round_trips", "failures_first_use_round_trips", "startup_tls_round_trips",
        "failures_tls_round_trips", "failures_first_use_tls_round_trips",
        "cmd_feature_list_round_trips", "cmd_feature_list_curl_jq_round_trips",
        "key_latency_ms_p50", "key_latency_ms_p95", "key_latency_minimal_ms_p50",
        "key_latency_ratio", "pagedown_over_down_p50", "large_first_page_s",
        "large_launch_first_rows_s", "large_launch_curl_jq_s", "rss_mb_large",
        "client_overhead_ratio", "sandbox_vs_unleash_rps", *ARCHIVE_KEYS,
        "archive_view_first_use_s", *COMMAND_KEYS,
        "preview_before_after_ms", "preview_before_after_max_ms", "preview_one_context_loaded_ms",
        "preview_population_10k_s", "preview_population_10k_max_s",
    ]  # fmt: skip
    print(f"\n{'figure':<30}{'value':>12}  target")
    print("-" * 60)
    for key in keys:
        if key in results:
            v = results[key]
            print(f"{key:<30}{'null' if v is None else v:>12}  {verdict(key, v)}")
    for key, d in (results.get("key_latency_by_key") or {}).items():
        print(f"  key {key:<25}{d['p50_ms']:>9} ms  p95 {d['p95_ms']} ms, minimal "
              f"{d['minimal_p50_ms']} ms, ratio {d['ratio_p50']}")  # fmt: skip
    rpa = results.get("requests_per_action") or {}
    for key in ("feature_detail", "failures_view", "event_search"):
        if key in rpa:
            print(f"  requests {key:<20}{'null' if rpa[key] is None else rpa[key]:>9}")
    for key, d in (results.get("sandbox_vs_unleash_rps_detail") or {}).items():
        print(f"  rps {key:<25}{d['sandbox_rps']:>9}/s  unleash {d['unleash_rps']}/s")
    if "vs_web_rows_s" in results:
        r = results
        print(f"  vs web: rows {r['vs_web_rows_s']} s against the web UI's "
              f"{r['vs_web_web_rows_s']} s ({r['vs_web_rows_speedup']}x sooner), "
              f"{r['vs_web_pss_mb']} MB against {r['vs_web_web_pss_mb']} MB")  # fmt: skip
    for key, note in (results.get("notes") or {}).items():
        print(f"  note {key}: {note}")
    meta = results.get("meta") or {}
    if "load_average" in meta:
        start, end = meta["load_average"]["start"], meta["load_average"]["end"]
        print(f"  load average (1, 5, 15 min): {start} at the start, {end} at the end")


def load_average() -> list[float] | None:
    """The machine's load (1, 5 and 15 minutes), kept with the results: a figure measured on a
    busy machine reads differently (every figure here is a wall-clock time)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not every platform has one
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (about 3 minutes)")
    parser.add_argument("--out", default=None, help="write the results to this JSON file")
    parser.add_argument(
        "--only", default="", help="comma-separated subset: startup,network,network_tls,keys,"
        "first_page,rss,requests,client,unleash,archive,archive_view,preview,commands,export,web"
    )  # fmt: skip
    parser.add_argument(
        "--vs-web", action="store_true", help="also flagtui against the server's web UI "
        "(Chromium + Playwright; never in CI): see bench/figures/web.py"
    )  # fmt: skip
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    q = args.quick
    t_start = time.perf_counter()
    notes: dict[str, str] = {}
    results: dict[str, Any] = {}
    loads: dict[str, list[float] | None] = {"start": load_average()}
    tmp = Path(tempfile.mkdtemp(prefix="flagtui-bench-"))
    sandboxes: dict[str, Sandbox] = {}

    def sandbox(size: str) -> Sandbox:
        """The demo or the large sandbox, started when a figure first needs it."""
        if size not in sandboxes:
            log(f"starting the {size} sandbox")
            db = tmp / "demo.db" if size == "demo" else large_database(tmp)
            sandboxes[size] = Sandbox(db, size)
        return sandboxes[size]

    try:
        plan: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("startup", lambda: bench_startup(sandbox("demo"), 3 if q else 7)),
            ("network", lambda: bench_network(sandbox("demo"), 1 if q else 3, notes)),
            ("network_tls", lambda: bench_network_tls(sandbox("demo"), 1 if q else 3, notes)),
            ("keys", lambda: bench_keys(sandbox("large"), 3 if q else 10, 8)),
            ("first_page", lambda: bench_first_page(sandbox("large"), 2 if q else 5)),
            ("rss", lambda: bench_rss(sandbox("large"), 5 if q else 20)),
            ("requests", lambda: bench_requests(sandbox("demo"))),
            ("client", lambda: bench_client(sandbox("large"), 3 if q else 7)),
            ("unleash", lambda: bench_unleash(sandbox("large"), 300 if q else 500, notes)),
            ("archive", lambda: bench_archive(tmp, 3 if q else 7, scale=not q)),
            ("archive_view", lambda: bench_archive_view(sandbox("demo"), 3 if q else 7)),
            ("preview", lambda: bench_preview(sandbox("demo"), 7 if q else 21, 3 if q else 5)),
            ("commands", lambda: bench_commands(sandbox("demo"), 3 if q else 7)),
            ("export", lambda: bench_export(sandbox("large"), tmp)),
        ]
        if args.vs_web and missing():
            notes["web"] = f"not measured: {missing()}"
        elif args.vs_web:
            plan.append(("web", lambda: bench_web(2 if q else 5)))
        for name, fn in plan:
            if only and name not in only:
                continue
            loads[name] = load_average()
            log(f"{name} … (load average {loads[name]})")
            t0 = time.perf_counter()
            try:
                results.update(fn())
            except Exception as exc:  # one broken figure never loses the others' results
                notes[name] = f"failed: {type(exc).__name__}: {str(exc)[:2000]}"
                log(notes[name])
            log(f"{name} done in {time.perf_counter() - t0:.1f}s")
    finally:
        for sb in sandboxes.values():
            sb.close()
        shutil.rmtree(tmp, ignore_errors=True)
    for key in TARGETS:
        results.setdefault(key, None)
    results["notes"] = notes
    loads["end"] = load_average()
    results["meta"] = {
        "quick": q,
        "seconds": round(time.perf_counter() - t_start, 1),
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "data_version": data_version(),
        "terminal": f"{COLS}x{ROWS} xterm-256color (pty + pyte)",
        # at the start, as each figure began, at the end
        "load_average": loads,
    }
    print_table(results)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
        log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
