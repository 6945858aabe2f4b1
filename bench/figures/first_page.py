"""3. The first page of the features and event log areas on the large data set."""

from __future__ import annotations

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
    return {
        "large_first_page_s": rnd(worst),
        "large_first_page_by_area_s": {k: rnd(v) for k, v in results.items()},
        "large_first_page_runs_s": {k: [rnd(x) for x in v] for k, v in runs_by_area.items()},
    }
