"""1. Startup: the real `flagtui` to its first demo feature, against the yardstick's first row."""

from __future__ import annotations

from typing import Any

from harness import (
    MINIMAL_MARKER,
    Sandbox,
    Timeout,
    flagtui_term,
    log,
    marker_of,
    median,
    minimal_term,
    rnd,
    shows,
)


def bench_startup(demo: Sandbox, runs: int) -> dict[str, Any]:
    marker = marker_of(demo.first_feature())
    tui: list[float] = []
    mini: list[float] = []
    glitches: list[str] = []
    for i in range(runs + 1):  # the first pair warms caches and is not counted
        with minimal_term() as t:
            m = t.wait_for(shows(MINIMAL_MARKER), 30, "minimal rows") - t.t0
        for _attempt in range(3):
            with flagtui_term(demo) as t:
                try:
                    f = t.wait_for(shows(marker), 15, f"demo feature {marker}") - t.t0
                    break
                except Timeout:
                    # Seen: the page shown with every column as narrow as its label (names
                    # clipped to 4 characters), which stays until the next refresh.
                    glitches.append(t.text())
                    log("startup: the first feature never appeared; screen kept in notes")
        else:
            raise Timeout("the demo features never appeared in 3 attempts")
        if i:
            mini.append(m)
            tui.append(f)
        log(f"startup {i}: flagtui {f:.3f}s, minimal {m:.3f}s")
    s, b = median(tui), median(mini)
    return {
        "startup_s": rnd(s),
        "startup_ratio": rnd(s / b if s and b else None),
        "startup_minimal_s": rnd(b),
        "startup_runs_s": [rnd(x) for x in tui],
        "startup_minimal_runs_s": [rnd(x) for x in mini],
        "startup_render_glitches": glitches,
    }
