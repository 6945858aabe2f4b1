"""2. Key latency on the large data set: Down, PageDown, Enter, against the yardstick."""

from __future__ import annotations

from typing import Any

from bench.harness import (
    MINIMAL_MARKER,
    Sandbox,
    Term,
    flagtui_term,
    log,
    marker_of,
    median,
    minimal_term,
    pct,
    press_table,
    quiet,
    rnd,
    shows,
)


def _round(t: Term, samples: dict[str, list[float]], downs: int) -> None:
    for _ in range(downs):
        samples["down"].append(press_table(t, "down"))
    samples["pagedown"].append(press_table(t, "pagedown"))
    quiet(t)
    sent = t.send("enter")
    samples["enter"].append(t.wait_for(shows("Environments"), 10, "the detail") - sent)
    if "enter_full" in samples:  # flagtui shows the row first, then the full record
        full = t.wait_for(lambda t: t.has(" strategies") and not t.has("reading "), 10, "full")
        samples["enter_full"].append(full - sent)
    quiet(t)
    t.send("escape")
    t.wait_for(lambda t: not t.has("Environments"), 10, "back to the table")
    quiet(t)
    t.send("pageup")  # back to the start, untimed: keeps both apps within their rows
    quiet(t)
    for _ in range(downs):
        t.send("up")
    t.settle(0.1, 5)


def bench_keys(large: Sandbox, rounds: int, downs: int) -> dict[str, Any]:
    marker = marker_of(large.first_feature())
    tui: dict[str, list[float]] = {"down": [], "pagedown": [], "enter": [], "enter_full": []}
    mini: dict[str, list[float]] = {"down": [], "pagedown": [], "enter": []}
    with flagtui_term(large) as ft, minimal_term() as mt:
        ft.wait_for(shows(marker), 60, "large first page")
        mt.wait_for(shows(MINIMAL_MARKER), 30, "minimal rows")
        ft.settle(0.3)
        mt.settle(0.3)
        _round(ft, {"down": [], "pagedown": [], "enter": [], "enter_full": []}, 3)  # warm-up
        _round(mt, {"down": [], "pagedown": [], "enter": []}, 3)
        for r in range(rounds):
            _round(ft, tui, downs)
            _round(mt, mini, downs)
            log(
                f"keys round {r}: flagtui down p50 {1000 * median(tui['down']):.1f} ms, "
                f"minimal {1000 * median(mini['down']):.1f} ms"
            )
    # enter_full (the full record read after the row was shown) has no yardstick counterpart:
    # reported on its own, not pooled.
    every_t = [x for key, xs in tui.items() if key in mini for x in xs]
    every_m = [x for xs in mini.values() for x in xs]
    by_key = {}
    for key, xs in tui.items():
        ys = mini.get(key, [])
        p50t, p50m = median(xs), median(ys)
        by_key[key] = {
            "n": len(xs),
            "p50_ms": rnd(1000 * p50t, 2),
            "p95_ms": rnd(1000 * pct(xs, 0.95), 2),
            "minimal_p50_ms": rnd(1000 * p50m, 2) if p50m else None,
            "minimal_p95_ms": rnd(1000 * pct(ys, 0.95), 2) if ys else None,
            "ratio_p50": rnd(p50t / p50m) if p50m else None,
        }
    p50, p50m = median(every_t), median(every_m)
    return {
        "key_latency_ms_p50": rnd(1000 * p50, 2),
        "key_latency_ms_p95": rnd(1000 * pct(every_t, 0.95), 2),
        "key_latency_ratio": rnd(p50 / p50m),
        "key_latency_minimal_ms_p50": rnd(1000 * p50m, 2),
        "key_latency_minimal_ms_p95": rnd(1000 * pct(every_m, 0.95), 2),
        "key_latency_by_key": by_key,
        "pagedown_over_down_p50": rnd(median(tui["pagedown"]) / median(tui["down"])),
    }
