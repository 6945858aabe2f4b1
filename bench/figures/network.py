"""8. Round trips: the real `flagtui` through bench/delay_proxy.py adding 0, 50 and 150 ms to
every round trip; the slope of time over added round-trip time is how many round trips the app
waits for one after another.

Each run starts flagtui on the demo sandbox with the first project remembered and no cached
rows, times the fresh first page (status "page 1/…" with the first feature on screen), then
presses the Failures area's key and times the failures view until it has read everything: the
integration of the newest unsuccessful delivery on screen and no "loading"/"reading" left.
Only what any failures view shows is looked for, so the figure measures whichever one main has.
A second start per run, from a home whose row cache an earlier start through the same proxy
filled, times the first feature on screen (cached rows, unless the server answered first).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from harness import (
    DelayProxy,
    Sandbox,
    Term,
    areas,
    flagtui_term,
    log,
    marker_of,
    median,
    quiet,
    rnd,
    shows,
    slope,
)

RTTS_MS = (0, 50, 150)


def bench_network(demo: Sandbox, runs: int) -> dict[str, Any]:
    marker = marker_of(demo.first_feature())
    project = demo.first_project()
    failures_key = areas()["failures"].key

    def fresh(t: Term) -> bool:
        return t.has(marker) and t.has("page 1/")

    def failures_read(t: Term) -> bool:
        """The failures view's status counts what it read ("window all (w) · 202 failures")."""
        left_features = not t.has("page 1/")
        busy = t.has("loading") or t.has("reading")
        return left_features and not busy and t.has(" failures · ")

    startup: dict[int, list[float]] = {}
    cached: dict[int, list[float]] = {}
    failures: dict[int, list[float]] = {}
    home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))  # keeps its row cache
    try:
        for rtt in RTTS_MS:
            proxy = DelayProxy(demo.url, rtt)
            try:
                # Rows are cached per server URL, and each proxy has its own: one uncounted
                # start through it leaves the cached rows the counted ones find.
                with flagtui_term(demo, project=project, url=proxy.url, home=home) as t:
                    t.wait_for(fresh, 30, "fresh first page")
                    quiet(t)
                for i in range(runs):
                    with flagtui_term(demo, project=project, url=proxy.url) as t:
                        s = t.wait_for(fresh, 30, "fresh first page") - t.t0
                        quiet(t)
                        f = t.press(failures_key, failures_read, 60)
                    with flagtui_term(demo, project=project, url=proxy.url, home=home) as t:
                        c = t.wait_for(shows(marker), 30, "first rows") - t.t0
                        t.wait_for(fresh, 30, "fresh first page")  # the cache stays current
                        quiet(t)
                    startup.setdefault(rtt, []).append(s)
                    cached.setdefault(rtt, []).append(c)
                    failures.setdefault(rtt, []).append(f)
                    log(f"network +{rtt} ms {i}: fresh rows {s:.3f}s (cached rows {c:.3f}s), "
                        f"failures view {f:.3f}s")  # fmt: skip
            finally:
                proxy.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)

    def trips(times: dict[int, list[float]]) -> float | None:
        return slope([(rtt / 1000, x) for rtt, xs in times.items() for x in xs])

    return {
        "startup_round_trips": rnd(trips(startup), 2),
        "failures_round_trips": rnd(trips(failures), 2),
        "startup_cached_round_trips": rnd(trips(cached), 2),
        "round_trips_detail": {
            "added_rtt_ms": list(RTTS_MS),
            "startup_fresh_median_s": [rnd(median(startup[r])) for r in RTTS_MS],
            "startup_cached_median_s": [rnd(median(cached[r])) for r in RTTS_MS],
            "failures_view_median_s": [rnd(median(failures[r])) for r in RTTS_MS],
            "startup_fresh_runs_s": {str(r): [rnd(x) for x in startup[r]] for r in RTTS_MS},
            "failures_view_runs_s": {str(r): [rnd(x) for x in failures[r]] for r in RTTS_MS},
        },
    }
