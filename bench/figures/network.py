"""8. Round trips: the real `flagtui` through bench/delay_proxy.py adding 0, 50 and 150 ms to
every round trip; the slope of time over added round-trip time is how many round trips the app
waits for one after another.

Each run starts flagtui on the demo sandbox with the first project remembered and no cached
rows, times the fresh first page (status "page 1/…" with the first feature on screen), then
presses the Failures area's key and times the failures view until it has read everything: the
integration of the newest unsuccessful delivery on screen and no "loading"/"reading" left
(`failures_first_use_round_trips`: the first time, nothing known of the integrations). Only
what any failures view shows is looked for, so the figure measures whichever one main has.
A second start per run, from a returning user's home (an earlier start through the same proxy
filled its row cache and opened the failures view), times the first feature on screen (cached
rows, unless the server answered first), then the failures view the same way
(`failures_round_trips`).

The fresh start's round trips are timed from the app's first request (the proxy says when it
came), not from its start: nothing can wait for the network before the first request leaves, so
the slope is the same, but the part of the start before it (Python, the imports, the app's
set-up: 0.3 to 1 s, varying by several tenths of a second from one start to the next on a busy
machine) is left out of a figure that adds at most 0.15 s. The app's first request is its
ui-config, asked for with its first page. Over
TLS the proxy cannot see which request a connection carries: the TLS figures are timed from
the first request of all. `startup_launch_round_trips` is the
same slope timed from the start, as it was measured before. The round-trip times take turns,
run by run, so a machine getting busier or quieter during the figure weighs on all of them
alike instead of looking like a slope.

Each plain-HTTP run also times `flagtui feature list --project P -o json` through the same
proxy, from `Popen` to exit (`cmd_feature_list_round_trips`), and curl + jq of the same two
URLs on one connection beside it (`cmd_feature_list_curl_jq_round_trips`: ui-config, then the
page, 2 round trips): the command's first page is searched while its client connects, one
round trip for a listing of one page.

The same runs over HTTPS (`bench_network_tls`: bench/delay_proxy.py's TLS mode, where a new
connection costs TCP's and TLS's handshakes in round trips) give the `_tls` figures: what an
app that opens connections instead of reusing them pays on a real network.

A slope that cannot be measured is left out (null, and why in `notes`), never shown: from one run
per round-trip time (`--quick`), or negative (the runs' spread larger than the added round
trips). `round_trips_detail.slopes` keeps each slope as computed, with its standard error.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness import (
    FLAGTUI,
    DelayProxy,
    Sandbox,
    TlsFiles,
    areas,
    base_env,
    curl_jq_feature_list,
    failures_read,
    flagtui_term,
    fresh_page,
    log,
    marker_of,
    median,
    quiet,
    rnd,
    shown_slope,
    shows,
    trips,
)

RTTS_MS = (0, 50, 150)


def bench_network(demo: Sandbox, runs: int, notes: dict[str, str]) -> dict[str, Any]:
    return _network(demo, runs, None, notes)


def bench_network_tls(demo: Sandbox, runs: int, notes: dict[str, str]) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="flagtui-bench-tls-"))
    try:
        try:
            tls = TlsFiles(folder)
        except (OSError, RuntimeError) as exc:
            return {"network_tls_omitted": f"no certificate could be made with openssl: {exc}"}
        tls_notes: dict[str, str] = {}
        figures = _network(demo, runs, tls, tls_notes)
        notes.update({k.replace("_round", "_tls_round"): v for k, v in tls_notes.items()})
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    detail = figures.pop("round_trips_detail")
    keep = ("startup_round_trips", "failures_round_trips", "failures_first_use_round_trips")
    tls_figures: dict[str, Any] = {
        key.replace("_round", "_tls_round"): figures[key] for key in keep
    }
    return tls_figures | {"round_trips_tls_detail": detail}


def _network(
    demo: Sandbox, runs: int, tls: TlsFiles | None, notes: dict[str, str]
) -> dict[str, Any]:
    marker = marker_of(demo.first_feature())
    project = demo.first_project()
    failures_key = areas()["failures"].key

    fresh = fresh_page(marker)
    startup: dict[int, list[float]] = {}  # from the first request
    launched: dict[int, list[float]] = {}  # from the start (Popen)
    cached: dict[int, list[float]] = {}
    failures: dict[int, list[float]] = {}  # a returning user's
    first_use: dict[int, list[float]] = {}  # nothing remembered
    listed: dict[int, list[float]] = {}  # `feature list`, plain HTTP only
    curled: dict[int, list[float]] = {}  # curl + jq of its two URLs
    home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))  # keeps its row cache
    proxies = [DelayProxy(demo.url, rtt, tls) for rtt in RTTS_MS]
    ca = tls.cert if tls else None
    try:
        for proxy in proxies:
            # Rows are cached per server URL, and each proxy has its own: one uncounted start
            # through it leaves the cached rows the counted ones find (and the integrations).
            with flagtui_term(demo, project=project, url=proxy.url, home=home, ca_bundle=ca) as t:
                t.wait_for(fresh, 30, "fresh first page")
                quiet(t)
                t.press(failures_key, failures_read, 60)
                quiet(t)
        n = len(proxies)
        for i in range(runs):
            for proxy in proxies[i % n :] + proxies[: i % n]:  # each goes first in turn
                rtt = int(proxy.rtt_ms)
                with flagtui_term(demo, project=project, url=proxy.url, ca_bundle=ca) as t:
                    page = t.wait_for(fresh, 30, "fresh first page")
                    asked = proxy.first_request_after(t.t0, path="/api/admin/ui-config")
                    started = page - t.t0
                    quiet(t)
                    u = t.press(failures_key, failures_read, 60)
                if asked is None:
                    raise RuntimeError("the proxy saw no request before the fresh first page")
                with flagtui_term(
                    demo, project=project, url=proxy.url, home=home, ca_bundle=ca
                ) as t:
                    c = t.wait_for(shows(marker), 30, "first rows") - t.t0
                    t.wait_for(fresh, 30, "fresh first page")  # the cache stays current
                    quiet(t)
                    f = t.press(failures_key, failures_read, 60)
                    quiet(t)
                if tls is None:
                    listed.setdefault(rtt, []).append(_feature_list(demo, proxy.url, project))
                    if shutil.which("curl") and shutil.which("jq"):
                        curl = curl_jq_feature_list(proxy.url, demo.token, project)
                        curled.setdefault(rtt, []).append(_timed(curl, None))
                s = page - asked
                startup.setdefault(rtt, []).append(s)
                launched.setdefault(rtt, []).append(started)
                cached.setdefault(rtt, []).append(c)
                failures.setdefault(rtt, []).append(f)
                first_use.setdefault(rtt, []).append(u)
                via = " (TLS)" if tls else ""
                log(f"network{via} +{rtt} ms {i}: fresh rows {s:.3f}s after the first request "
                    f"({started:.3f}s after the start; cached rows {c:.3f}s), "
                    f"failures view {f:.3f}s ({u:.3f}s the first time)")  # fmt: skip
    finally:
        for proxy in proxies:
            proxy.close()
        shutil.rmtree(home, ignore_errors=True)

    measured = {
        "startup_round_trips": startup,
        "failures_round_trips": failures,
        "failures_first_use_round_trips": first_use,
        "startup_cached_round_trips": cached,
        "startup_launch_round_trips": launched,
    }
    if listed:
        measured["cmd_feature_list_round_trips"] = listed
    if curled:
        measured["cmd_feature_list_curl_jq_round_trips"] = curled
    slopes = {key: trips(times) for key, times in measured.items()}
    figures: dict[str, Any] = {}
    for key, (value, error) in slopes.items():
        figures[key], why = shown_slope(value, error, runs)
        if why:
            notes[key] = why
    return {
        **figures,
        "round_trips_detail": {
            # every slope as computed, with its standard error (None: fewer than 3 points)
            "slopes": {k: [rnd(v, 2), rnd(e, 2)] for k, (v, e) in slopes.items()},
            "added_rtt_ms": list(RTTS_MS),
            "startup_fresh_median_s": [rnd(median(startup[r])) for r in RTTS_MS],
            "startup_fresh_from_launch_median_s": [rnd(median(launched[r])) for r in RTTS_MS],
            "startup_cached_median_s": [rnd(median(cached[r])) for r in RTTS_MS],
            "failures_view_median_s": [rnd(median(failures[r])) for r in RTTS_MS],
            "failures_first_use_median_s": [rnd(median(first_use[r])) for r in RTTS_MS],
            "startup_fresh_runs_s": {str(r): [rnd(x) for x in startup[r]] for r in RTTS_MS},
            "startup_fresh_from_launch_runs_s": {
                str(r): [rnd(x) for x in launched[r]] for r in RTTS_MS
            },
            "failures_view_runs_s": {str(r): [rnd(x) for x in failures[r]] for r in RTTS_MS},
            "failures_first_use_runs_s": {str(r): [rnd(x) for x in first_use[r]] for r in RTTS_MS},
            "feature_list_runs_s": {str(r): [rnd(x) for x in listed.get(r, [])] for r in RTTS_MS},
            "feature_list_curl_jq_runs_s": {
                str(r): [rnd(x) for x in curled.get(r, [])] for r in RTTS_MS
            },
        },
    }


def _feature_list(demo: Sandbox, url: str, project: str) -> float:
    """`flagtui feature list` through `url`, from a home of its own: Popen to exit."""
    home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))
    env = base_env(home) | {"UNLEASH_URL": url, "UNLEASH_API_TOKEN": demo.token}
    argv = [FLAGTUI, "feature", "list", "--project", project, "-o", "json"]
    try:
        return _timed(argv, env)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _timed(argv: list[str], env: dict[str, str] | None) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{argv[:3]} exited {done.returncode}: {done.stderr[-2000:]}")
    return took
