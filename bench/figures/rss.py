"""4. Memory: flagtui's peak RSS while browsing the large data set."""

from __future__ import annotations

from typing import Any

from bench.harness import (
    Sandbox,
    areas,
    flagtui_term,
    marker_of,
    press_table,
    quiet,
    rnd,
    shows,
)


def bench_rss(large: Sandbox, pages: int) -> dict[str, Any]:
    all_areas = areas()
    marker = marker_of(large.first_feature())
    visited = ["features"]
    with flagtui_term(large) as t:
        t.wait_for(shows(marker), 60, "large first page")
        t.settle(0.3)
        after_start = t.peak_rss_mb()
        for _ in range(pages):
            press_table(t, "pagedown")
        for _ in range(3):
            t.press("enter", shows("Environments"), 10)
            quiet(t)
            t.send("escape")
            t.wait_for(lambda t: not t.has("Environments"), 10, "back to the table")
            quiet(t)
            press_table(t, "down")
        for name in ("events", "integrations", "failures"):
            t.send(all_areas[name].key)
            t.settle(1.0, 30)  # its first page(s) read and shown
            if name == "integrations":  # one integration's deliveries, then back
                t.send("enter")
                t.settle(1.0, 30)
                t.send("pagedown")
                t.settle(0.5, 30)
                t.send("escape")
                t.settle(0.3, 10)
            visited.append(name)
        peak = t.peak_rss_mb()
    return {
        "rss_mb_large": rnd(peak, 1),
        "rss_mb_after_start_large": rnd(after_start, 1),
        "rss_areas_browsed": visited,
    }
