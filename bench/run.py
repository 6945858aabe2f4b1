"""flagtui benchmarks: `python bench/run.py [--quick] [--out FILE.json]` (also `./dev bench`).

Starts its own sandboxes (bench/sandbox_server.py, subprocesses on free loopback ports, databases
in a temp dir; the large data set is generated once and cached under .tmp/bench/ keyed by a hash
of the sandbox's data-generation code), drives the real `flagtui` console script and the
yardstick (bench/minimal_app.py) in pseudo-terminals read through pyte, and prints a table.
Every ratio is measured side by side in the same run. See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # pty_term: shared with the pty tests

import httpx  # noqa: E402
from pty_term import Term, Timeout  # noqa: E402

PY = sys.executable
FLAGTUI = str(Path(sys.executable).parent / "flagtui")
CACHE = ROOT / ".tmp" / "bench"
COLS, ROWS = 80, 24
# Everything that decides the content of a generated database: its hash names the cache file.
DATA_SOURCES = [
    "demo_data.py", "hostile_data.py", "create.py", "db.py", "auth.py", "clock.py", "features.py",
    "feature_types.py", "integrations.py", "event_types.py",
]  # fmt: skip

TARGETS = {
    "startup_ratio": ("<=", 1.5),
    "key_latency_ms_p50": ("<=", 10.0),
    "key_latency_ratio": ("<=", 1.3),
    "large_first_page_s": ("<=", 0.5),
    "rss_mb_large": ("<=", 150.0),
    "client_overhead_ratio": ("<=", 1.3),
    "sandbox_vs_unleash_rps": (">=", 1.0),
}


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def pct(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def rnd(x: float | None, n: int = 3) -> float | None:
    return None if x is None else round(x, n)


# -- data and sandboxes ----------------------------------------------------------------------


def data_version() -> str:
    h = hashlib.sha256()
    for name in DATA_SOURCES:
        path = ROOT / "flagtui" / "sandbox" / name
        if path.exists():
            h.update(name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


def large_database(tmp: Path) -> Path:
    """A private copy of the cached large database (generated on the first run)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    cached = CACHE / f"large-{data_version()}.db"
    if not cached.exists():
        log(f"generating the large data set into {cached} (once; about a minute)")
        for old in CACHE.glob("large-*.db"):
            old.unlink()
        part = cached.with_suffix(".part")
        subprocess.run(
            [PY, "-c", "import sys; from flagtui.sandbox import create_database as c;"
             " c(sys.argv[1], size='large')", str(part)],
            check=True,
            cwd=ROOT,
        )  # fmt: skip
        part.rename(cached)
    copy = tmp / "large.db"
    shutil.copyfile(cached, copy)
    return copy


class Sandbox:
    """bench/sandbox_server.py in a subprocess: the sandbox plus request counters."""

    def __init__(self, db: Path, size: str) -> None:
        self.proc = subprocess.Popen(
            [PY, str(HERE / "sandbox_server.py"), "--db", str(db), "--size", size],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the bench sandbox did not start")
        info = json.loads(line)
        self.url: str = info["url"]
        self.token: str = info["admin"]
        self.pid: int = info["pid"]
        self.http = httpx.Client(base_url=self.url, headers={"Authorization": self.token})

    def get(self, path: str, **params: Any) -> Any:
        r = self.http.get(path, params=params)
        r.raise_for_status()
        return r.json()

    def reset_counts(self) -> None:
        self.http.post("/__bench__/reset").raise_for_status()

    def counts(self) -> dict[str, Any]:
        return self.http.get("/__bench__/requests").json()

    def first_feature(self) -> str:
        """The name the features area shows first: first project, sorted by name."""
        project = self.get("/api/admin/projects")["projects"][0]["id"]
        page = self.get(
            "/api/admin/search/features",
            project=f"IS:{project}",
            sortBy="name",
            sortOrder="asc",
            limit=1,
        )
        return page["features"][0]["name"]

    def close(self) -> None:
        self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# -- the apps in a pseudo-terminal -------------------------------------------------------------


def base_env(home: Path) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    return env


@contextmanager
def flagtui_term(sb: Sandbox, area: str | None = None) -> Iterator[Term]:
    """The real `flagtui` console script on `sb`, with no config file and fresh state."""
    home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))
    env = base_env(home)
    env["UNLEASH_URL"] = sb.url
    env["UNLEASH_API_TOKEN"] = sb.token
    if area:
        state = home / "state" / "flagtui" / "state.json"
        state.parent.mkdir(parents=True)
        state.write_text(json.dumps({"env": {"area": area}}))
    term = Term([FLAGTUI], env, COLS, ROWS, cwd=str(home))
    try:
        yield term
    finally:
        term.close()
        shutil.rmtree(home, ignore_errors=True)


@contextmanager
def minimal_term(rows: int = 100) -> Iterator[Term]:
    home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))
    term = Term([PY, str(HERE / "minimal_app.py"), "--rows", str(rows)], base_env(home), COLS, ROWS)
    try:
        yield term
    finally:
        term.close()
        shutil.rmtree(home, ignore_errors=True)


MINIMAL_MARKER = "minimal-row-00000"


def shows(text: str) -> Callable[[Term], bool]:
    return lambda t: t.has(text)


def marker_of(name: str) -> str:
    return name[:15]  # long names are clipped with "…" in narrow terminals


def table_region(t: Term) -> tuple[int, int]:
    """Lines of a DataTable's rows: below its header line ("Name ... Type"), above the footer."""
    for y, line in enumerate(t.screen.display):
        words = line.split()
        if words[:2] == ["Name", "Type"]:
            return y + 1, ROWS - 2
    raise RuntimeError("no table header on screen:\n" + t.text())


# -- 1. startup ------------------------------------------------------------------------------


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


# -- 2. key latency --------------------------------------------------------------------------


def _quiet(t: Term) -> None:
    t.settle(0.05, 5)


def _press_table(t: Term, key: str, timeout: float = 10) -> float:
    a, b = table_region(t)
    _quiet(t)
    before = t.signature(a, b)
    return t.press(key, lambda t: t.signature(a, b) != before, timeout)


def _round(t: Term, samples: dict[str, list[float]], downs: int) -> None:
    for _ in range(downs):
        samples["down"].append(_press_table(t, "down"))
    samples["pagedown"].append(_press_table(t, "pagedown"))
    _quiet(t)
    sent = t.send("enter")
    samples["enter"].append(t.wait_for(shows("Environments"), 10, "the detail") - sent)
    if "enter_full" in samples:  # flagtui shows the row first, then the full record
        full = t.wait_for(lambda t: t.has(" strategies") and not t.has("reading "), 10, "full")
        samples["enter_full"].append(full - sent)
    _quiet(t)
    t.send("escape")
    t.wait_for(lambda t: not t.has("Environments"), 10, "back to the table")
    _quiet(t)
    t.send("pageup")  # back to the start, untimed: keeps both apps within their rows
    _quiet(t)
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
    }


# -- 3. first page on the large data set -----------------------------------------------------


def areas() -> dict[str, Any]:
    from flagtui.tui.areas import AREAS

    return {a.name: a for a in AREAS}


def event_log_area() -> Any | None:
    for name, area in areas().items():
        if name in ("events", "event-log", "event_log") or "event" in area.screen.lower():
            return area
    return None


def _first_page(sb: Sandbox, start_area: str, start_marker: str, key: str, marker: str) -> float:
    with flagtui_term(sb, area=start_area) as t:
        t.wait_for(shows(start_marker), 60, f"the {start_area} area")
        t.settle(0.3)
        return t.press(key, shows(marker), 30)


def bench_first_page(large: Sandbox, runs: int, notes: dict[str, str]) -> dict[str, Any]:
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
    events = event_log_area()
    if events is None:
        results["events"] = None
        notes["large_first_page_s"] = (
            "the event log area is not registered in flagtui/tui/screens AREAS yet: "
            "the figure covers the features area only"
        )
    else:
        newest = large.get("/api/admin/search/events", limit=1)["events"][0]
        from datetime import UTC, datetime

        stamp = datetime.fromisoformat(newest["createdAt"].replace("Z", "+00:00"))
        marker = stamp.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
        xs = []
        for i in range(runs):
            xs.append(_first_page(large, start, start_marker, events.key, marker))
            log(f"first page events {i}: {xs[-1]:.3f}s")
        results["events"] = median(xs)
        runs_by_area["events"] = xs
    worst = max(v for v in results.values() if v is not None)
    return {
        "large_first_page_s": rnd(worst),
        "large_first_page_by_area_s": {k: rnd(v) for k, v in results.items()},
        "large_first_page_runs_s": {k: [rnd(x) for x in v] for k, v in runs_by_area.items()},
    }


# -- 4. memory -------------------------------------------------------------------------------


def bench_rss(large: Sandbox, pages: int, notes: dict[str, str]) -> dict[str, Any]:
    all_areas = areas()
    marker = marker_of(large.first_feature())
    visited = ["features"]
    with flagtui_term(large) as t:
        t.wait_for(shows(marker), 60, "large first page")
        t.settle(0.3)
        after_start = t.peak_rss_mb()
        for _ in range(pages):
            _press_table(t, "pagedown")
        for _ in range(3):
            t.press("enter", shows("Environments"), 10)
            _quiet(t)
            t.send("escape")
            t.wait_for(lambda t: not t.has("Environments"), 10, "back to the table")
            _quiet(t)
            _press_table(t, "down")
        for name in ("events", "event-log", "integrations", "failures"):
            area = all_areas.get(name)
            if area is None:
                continue
            t.send(area.key)
            t.settle(1.0, 30)  # its first page(s) read and shown
            if name == "integrations":  # one integration's deliveries, then back
                t.send("enter")
                t.settle(1.0, 30)
                t.send("pagedown")
                t.settle(0.5, 30)
                t.send("escape")
                t.settle(0.3, 10)
            visited.append(name)
        if event_log_area() is None:
            notes["rss_mb_large"] = "no event log area registered yet: browsed " + ", ".join(
                visited
            )
        peak = t.peak_rss_mb()
    return {
        "rss_mb_large": rnd(peak, 1),
        "rss_mb_after_start_large": rnd(after_start, 1),
        "rss_areas_browsed": visited,
    }


# -- 5. requests per action (in-process Pilot, counted at the server) -------------------------


async def _idle(app: Any, pilot: Any) -> None:
    for _ in range(200):
        await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)
        if not any(w.is_running for w in app.workers):
            return


async def _requests(sb: Sandbox, notes: dict[str, str]) -> dict[str, Any]:
    from flagtui.api import AdminClient
    from flagtui.config import Profile
    from flagtui.tui.app import FlagtuiApp

    state = Path(tempfile.mkdtemp(prefix="flagtui-bench-state-")) / "state.json"
    client = AdminClient(sb.url, sb.token, profile="bench")
    app = FlagtuiApp(client, Profile(name="bench", url=sb.url), state_path=state)
    out: dict[str, Any] = {}
    routes: dict[str, Any] = {}
    n_addons = len(sb.get("/api/admin/addons")["addons"])
    async with app.run_test(size=(COLS, ROWS)) as pilot:
        await _idle(app, pilot)
        # Feature detail: Enter on the first row of the features area.
        sb.reset_counts()
        await pilot.press("enter")
        await _idle(app, pilot)
        c = sb.counts()
        out["feature_detail"], routes["feature_detail"] = c["total"], c["by_route"]
        await pilot.press("escape")
        await _idle(app, pilot)
        # All-integrations failures view.
        all_areas = areas()
        if "failures" in all_areas:
            sb.reset_counts()
            app.switch_area("failures")
            await _idle(app, pilot)
            c = sb.counts()
            out["failures_view"], routes["failures_view"] = c["total"], c["by_route"]
        else:
            out["failures_view"] = None
            notes["requests_per_action.failures_view"] = "no failures area registered yet"
        out["failures_view_minimum"] = 1 + n_addons
        events = event_log_area()
        if events is not None:
            sb.reset_counts()
            app.switch_area(events.name)
            await _idle(app, pilot)
            c = sb.counts()
            routes["event_log_open"] = c["by_route"]
            out["event_log_open"] = c["total"]
            # One search as a person runs it: focus the free-text box (or press s), type a word
            # key by key (debounced), press Enter.
            sb.reset_counts()
            boxes = app.screen.query("#query")  # the free-text box, when the screen has one
            if boxes:
                boxes.first().focus()
            else:
                await pilot.press("s")
            await pilot.pause(0.05)
            focused = type(app.focused).__name__ if app.focused else None
            await pilot.press(*"tagged", "enter")
            await _idle(app, pilot)
            await pilot.pause(0.7)  # past any debounce timer
            await _idle(app, pilot)
            c = sb.counts()
            routes["event_search"] = c["by_route"]
            out["event_search"] = c["total"]
            if focused != "Input":
                notes["requests_per_action.event_search"] = (
                    f"`s` focused {focused}, not a search box: counted anyway"
                )
        else:
            out["event_search"] = None
            notes["requests_per_action.event_search"] = "no event log area registered yet"
    await client.aclose()
    out["by_route"] = routes
    return out


def bench_requests(demo: Sandbox, notes: dict[str, str]) -> dict[str, Any]:
    return {"requests_per_action": asyncio.run(_requests(demo, notes))}


# -- 6. client overhead ----------------------------------------------------------------------


async def _client_overhead(sb: Sandbox, runs: int, total: int) -> dict[str, Any]:
    from flagtui.api import AdminClient

    client = AdminClient(sb.url, sb.token, profile="bench")
    await client.connect()
    route = client._event_route or "post"  # the route the client will use, for a fair baseline
    raw = httpx.AsyncClient(base_url=sb.url, headers={"Authorization": sb.token})

    async def with_client() -> int:
        n, cursor = 0, None
        while n < total:
            page = await client.search_events(limit=100, cursor=cursor)
            n += len(page.events)
            cursor = page.next_cursor
            if cursor is None:
                break
        return n

    async def plain() -> int:
        n, cursor = 0, 0
        while n < total:
            if route == "get":
                r = await raw.get("/api/admin/search/events", params={"limit": 100, "offset": n})
                events = json.loads(r.content)["events"]
            else:
                body: dict[str, Any] = {"limit": 100}
                if cursor:
                    body["offset"] = cursor
                r = await raw.post("/api/admin/events/search", json=body)
                events = json.loads(r.content)["events"]
                cursor = events[-1]["id"] - 1
            n += len(events)
        return n

    tc: list[float] = []
    tp: list[float] = []
    await with_client()  # warm-up (also warms the server's page cache)
    await plain()
    for i in range(runs):
        for fn, xs in (
            ((with_client, tc), (plain, tp)) if i % 2 == 0 else ((plain, tp), (with_client, tc))
        ):
            t0 = time.perf_counter()
            n = await fn()
            xs.append(time.perf_counter() - t0)
            assert n >= total, n
    # Where the client's extra time goes: validation alone, on bytes already in memory.
    body = {"limit": 100}
    r = (
        await raw.post("/api/admin/events/search", json=body)
        if route != "get"
        else await raw.get("/api/admin/search/events", params={"limit": 100})
    )
    content = r.content
    from flagtui.api import client as client_module
    from flagtui.api.wire import EventSearchAnswer

    adapter = client_module._adapter(EventSearchAnswer)
    t0 = time.perf_counter()
    for _ in range(100):
        adapter.validate_json(content)
    validate = (time.perf_counter() - t0) / 100
    t0 = time.perf_counter()
    for _ in range(100):
        json.loads(content)
    loads = (time.perf_counter() - t0) / 100
    await raw.aclose()
    await client.aclose()
    c, p = median(tc), median(tp)
    return {
        "client_overhead_ratio": rnd(c / p if c and p else None),
        "client_overhead_detail": {
            "events": total,
            "route": route,
            "client_s": rnd(c),
            "plain_httpx_json_s": rnd(p),
            "client_runs_s": [rnd(x) for x in tc],
            "plain_runs_s": [rnd(x) for x in tp],
            "per_page_validate_json_ms": rnd(1000 * validate, 3),
            "per_page_json_loads_ms": rnd(1000 * loads, 3),
            "page_bytes": len(content),
        },
    }


def bench_client(large: Sandbox, runs: int) -> dict[str, Any]:
    return asyncio.run(_client_overhead(large, runs, 10_000))


# -- 7. sandbox vs real Unleash --------------------------------------------------------------


def _loopback(url: str) -> bool:
    from urllib.parse import urlparse

    host = urlparse(url).hostname or ""
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


async def _rps(
    url: str, token: str, make: Callable[[int], tuple[str, str, Any]], count: int, limit_s: float
) -> dict[str, Any]:
    headers = {"Authorization": token, "Content-Type": "application/json"}
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits) as http:
        for i in range(16):  # open the connections first
            method, path, _body = make(i)
            if method == "GET":
                await http.get(path)
        issued = 0
        errors = 0
        deadline = time.perf_counter() + limit_s

        async def worker() -> int:
            nonlocal issued, errors
            done = 0
            while issued < count and time.perf_counter() < deadline:
                i = issued
                issued += 1
                method, path, body = make(i)
                r = await http.request(method, path, json=body)
                if r.status_code >= 400:
                    errors += 1
                done += 1
            return done

        t0 = time.perf_counter()
        done = sum(await asyncio.gather(*(worker() for _ in range(16))))
        elapsed = time.perf_counter() - t0
    return {"rps": done / elapsed, "requests": done, "errors": errors, "s": elapsed}


async def _compare(sb: Sandbox, count: int, limit_s: float) -> dict[str, Any]:
    unleash_url = os.environ["UNLEASH_URL"].rstrip("/")
    unleash_token = os.environ["UNLEASH_API_TOKEN"]
    sandbox_project = sb.get("/api/admin/projects")["projects"][0]["id"]
    sandbox_feature = sb.first_feature()
    name = f"flagtui-bench-{os.getpid()}"
    headers = {"Authorization": unleash_token, "Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=unleash_url, headers=headers) as http:
        r = await http.post(
            "/api/admin/projects/default/features", json={"name": name, "type": "release"}
        )
        r.raise_for_status()
        try:
            ops: dict[str, dict[str, Callable[[int], tuple[str, str, Any]]]] = {
                "event_search": {
                    "sandbox": lambda i: ("GET", "/api/admin/search/events?limit=50", None),
                    "unleash": lambda i: ("GET", "/api/admin/search/events?limit=50", None),
                },
                "feature_detail": {
                    "sandbox": lambda i: (
                        "GET",
                        f"/api/admin/projects/{sandbox_project}/features/{sandbox_feature}",
                        None,
                    ),
                    "unleash": lambda i: (
                        "GET",
                        f"/api/admin/projects/default/features/{name}",
                        None,
                    ),
                },
                "patch": {
                    "sandbox": lambda i: (
                        "PATCH",
                        f"/api/admin/projects/{sandbox_project}/features/{sandbox_feature}",
                        [{"op": "replace", "path": "/description", "value": f"bench {i}"}],
                    ),
                    "unleash": lambda i: (
                        "PATCH",
                        f"/api/admin/projects/default/features/{name}",
                        [{"op": "replace", "path": "/description", "value": f"bench {i}"}],
                    ),
                },
            }
            out: dict[str, Any] = {}
            for op, sides in ops.items():
                s = await _rps(sb.url, sb.token, sides["sandbox"], count, limit_s)
                u = await _rps(unleash_url, unleash_token, sides["unleash"], count, limit_s)
                out[op] = {
                    "sandbox_rps": round(s["rps"], 1),
                    "unleash_rps": round(u["rps"], 1),
                    "ratio": round(s["rps"] / u["rps"], 3),
                    "sandbox_errors": s["errors"],
                    "unleash_errors": u["errors"],
                }
                log(f"rps {op}: sandbox {s['rps']:.0f}/s, unleash {u['rps']:.0f}/s")
        finally:
            await http.delete(f"/api/admin/projects/default/features/{name}")
            await http.delete(f"/api/admin/archive/{name}")
    return out


def bench_unleash(large: Sandbox, count: int, notes: dict[str, str]) -> dict[str, Any]:
    url = os.environ.get("UNLEASH_URL")
    if not url or not os.environ.get("UNLEASH_API_TOKEN"):
        notes["sandbox_vs_unleash_rps"] = "UNLEASH_URL/UNLEASH_API_TOKEN not set: not measured"
        return {}
    if not _loopback(url):
        notes["sandbox_vs_unleash_rps"] = f"{url} is not a loopback address: not measured"
        return {}
    try:
        httpx.get(url.rstrip("/") + "/health", timeout=3).raise_for_status()
    except httpx.HTTPError as exc:
        notes["sandbox_vs_unleash_rps"] = f"real Unleash at {url} not reachable ({exc})"
        return {}
    detail = asyncio.run(_compare(large, count, 30.0))
    return {
        "sandbox_vs_unleash_rps": min(d["ratio"] for d in detail.values()),
        "sandbox_vs_unleash_rps_detail": detail,
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
        "startup_s", "startup_minimal_s", "startup_ratio",
        "key_latency_ms_p50", "key_latency_ms_p95", "key_latency_minimal_ms_p50",
        "key_latency_ratio", "large_first_page_s", "rss_mb_large", "client_overhead_ratio",
        "sandbox_vs_unleash_rps",
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
    for key, note in (results.get("notes") or {}).items():
        print(f"  note {key}: {note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (about 3 minutes)")
    parser.add_argument("--out", default=None, help="write the results to this JSON file")
    parser.add_argument(
        "--only", default="", help="comma-separated subset: startup,keys,first_page,rss,"
        "requests,client,unleash"
    )  # fmt: skip
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    q = args.quick
    t_start = time.perf_counter()
    notes: dict[str, str] = {}
    results: dict[str, Any] = {}
    tmp = Path(tempfile.mkdtemp(prefix="flagtui-bench-"))
    sandboxes: list[Sandbox] = []
    try:
        log("starting the sandboxes")
        demo = Sandbox(tmp / "demo.db", "demo")
        sandboxes.append(demo)
        large = Sandbox(large_database(tmp), "large")
        sandboxes.append(large)
        plan: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("startup", lambda: bench_startup(demo, 3 if q else 7)),
            ("keys", lambda: bench_keys(large, 3 if q else 10, 8)),
            ("first_page", lambda: bench_first_page(large, 2 if q else 5, notes)),
            ("rss", lambda: bench_rss(large, 5 if q else 20, notes)),
            ("requests", lambda: bench_requests(demo, notes)),
            ("client", lambda: bench_client(large, 3 if q else 7)),
            ("unleash", lambda: bench_unleash(large, 300 if q else 500, notes)),
        ]
        for name, fn in plan:
            if only and name not in only:
                continue
            log(f"{name} …")
            t0 = time.perf_counter()
            try:
                results.update(fn())
            except (Timeout, RuntimeError, httpx.HTTPError, AssertionError) as exc:
                notes[name] = f"failed: {type(exc).__name__}: {str(exc)[:2000]}"
                log(notes[name])
            log(f"{name} done in {time.perf_counter() - t0:.1f}s")
    finally:
        for sb in sandboxes:
            sb.close()
        shutil.rmtree(tmp, ignore_errors=True)
    for key in TARGETS:
        results.setdefault(key, None)
    results["notes"] = notes
    results["meta"] = {
        "quick": q,
        "seconds": round(time.perf_counter() - t_start, 1),
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "data_version": data_version(),
        "terminal": f"{COLS}x{ROWS} xterm-256color (pty + pyte)",
    }
    print_table(results)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
        log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
