"""3. The first page of the features and event log areas on the large data set; and the
first rows from launch there (nothing cached), against curl + jq of the same page."""

from __future__ import annotations

import shutil
import subprocess
import time
from datetime import UTC, datetime
from typing import Any

from bench.harness import Sandbox, areas, flagtui_term, log, marker_of, median, rnd, shows


def _first_page(sb: Sandbox, start_area: str, start_marker: str, key: str, marker: str) -> float:
    with flagtui_term(sb, area=start_area) as t:
        t.wait_for(shows(start_marker), 60, f"the {start_area} area")
        t.settle(0.3)
        return t.press(key, shows(marker), 30)


def bench_first_page(large: Sandbox, runs: int) -> dict[str, Any]:
    all_areas = areas()
    feature_marker = marker_of(large.first_feature())
    # Start in the feature types area (its screen shows the type "experiment"), then open.
    start, start_marker = "feature-types", "experiment"
    results: dict[str, float | None] = {}
    runs_by_area: dict[str, list[float]] = {}
    xs = []
    for i in range(runs):
        xs.append(
            _first_page(large, start, start_marker, all_areas["features"].key, feature_marker)
        )
        log(f"first page features {i}: {xs[-1]:.3f}s")
    results["features"] = median(xs)
    runs_by_area["features"] = xs
    newest = large.get("/api/admin/search/events", limit=1)["events"][0]
    stamp = datetime.fromisoformat(newest["createdAt"].replace("Z", "+00:00"))
    marker = stamp.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    xs = []
    for i in range(runs):
        xs.append(_first_page(large, start, start_marker, all_areas["events"].key, marker))
        log(f"first page events {i}: {xs[-1]:.3f}s")
    results["events"] = median(xs)
    runs_by_area["events"] = xs
    worst = max(v for v in results.values() if v is not None)
    return _from_launch(large, runs, feature_marker) | {
        "large_first_page_s": rnd(worst),
        "large_first_page_by_area_s": {k: rnd(v) for k, v in results.items()},
        "large_first_page_runs_s": {k: [rnd(x) for x in v] for k, v in runs_by_area.items()},
    }


def _from_launch(large: Sandbox, runs: int, marker: str) -> dict[str, Any]:
    """`Popen` to the first feature on screen, in a fresh home (no cached rows, the project
    remembered); the yardstick, taking turns with it: curl + jq of the page the area asks for
    (the first 50 of the project by name), the whole of what a shell script would wait for."""
    project = large.first_project()
    query = f"project=IS:{project}&sortBy=name&sortOrder=asc&limit=50"
    page = f"{large.url}/api/admin/search/features?{query}"
    curl = f"curl -sf -H 'Authorization: {large.token}' '{page}' | jq . > /dev/null"
    have_tools = bool(shutil.which("curl") and shutil.which("jq"))
    tui: list[float] = []
    shell: list[float] = []
    for i in range(runs):
        with flagtui_term(large, area="features", project=project) as t:
            tui.append(t.wait_for(shows(marker), 60, f"large feature {marker}") - t.t0)
        if have_tools:
            t0 = time.perf_counter()
            subprocess.run(["bash", "-o", "pipefail", "-c", curl], check=True)
            shell.append(time.perf_counter() - t0)
        log(
            f"large from launch {i}: {tui[-1]:.3f}s"
            + (f", curl + jq {shell[-1]:.3f}s" if shell else "")
        )
    figures: dict[str, Any] = {"large_launch_first_rows_s": rnd(median(tui))}
    figures["large_launch_first_rows_runs_s"] = [rnd(x) for x in tui]
    figures["large_launch_curl_jq_s"] = rnd(median(shell)) if shell else None
    return figures
