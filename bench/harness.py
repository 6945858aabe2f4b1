"""The bench's harness: paths, statistics, the sandboxes (subprocesses with request counters),
the large data set's cache, and the apps in a pseudo-terminal read through pyte. Each figure is a
module of bench/figures/ built on these; bench/run.py runs them and prints the table."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from testkit.pty_term import Term, Timeout  # noqa: F401 (Timeout: raised to the figures and run.py)
from testkit.tls_files import TlsFiles

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

PY = sys.executable
FLAGTUI = str(Path(sys.executable).parent / "flagtui")
CACHE = ROOT / ".tmp" / "bench"
COLS, ROWS = 80, 24
# Everything that decides the content of a generated database: its hash names the cache file.
DATA_SOURCES = [
    "demo_data.py", "demo_tables.py", "demo_history.py", "hostile_data.py", "create.py", "db.py",
    "auth.py", "clock.py", "features.py", "feature_types.py", "integrations.py", "../contract.py",
]  # fmt: skip


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

    def first_project(self) -> str:
        project: str = self.get("/api/admin/projects")["projects"][0]["id"]
        return project

    def close(self) -> None:
        self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class DelayProxy:
    """bench/delay_proxy.py in a subprocess: `url` reaches `upstream` with `rtt_ms` added to
    every round trip (over HTTPS with `tls`); `first_request_after` says when an app's first
    request (or its first request for a path) reached it."""

    def __init__(self, upstream: str, rtt_ms: float, tls: TlsFiles | None = None) -> None:
        self.rtt_ms = rtt_ms
        self.tls = tls
        argv = [PY, str(HERE / "delay_proxy.py"), "--upstream", upstream, "--rtt-ms", str(rtt_ms)]
        if tls is not None:
            argv += ["--tls-cert", str(tls.cert), "--tls-key", str(tls.key)]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the delay proxy did not start")
        self.url: str = json.loads(line)["url"]
        # perf_counter times of connections' first bytes, with their request lines (None: TLS)
        self._requests: list[tuple[float, str | None]] = []
        threading.Thread(target=self._read_requests, daemon=True).start()

    def _read_requests(self) -> None:
        """The proxy's monotonic clock is this process's too: only perf_counter's origin may
        differ from it."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            said = json.loads(line)
            at = said["request"] + time.perf_counter() - time.monotonic()
            self._requests.append((at, said["line"]))

    def first_request_after(self, t0: float, path: str | None = None) -> float | None:
        """perf_counter time of the first request since `t0` (None if none came); with `path`,
        of the first connection whose first request is for it, where the proxy sees requests
        (plain HTTP; over TLS, the first request of all)."""
        times = [(t, line) for t, line in list(self._requests) if t >= t0]
        if path is not None and self.tls is None:
            times = [(t, line) for t, line in times if line and line.split(" ")[1].startswith(path)]
        return min((t for t, _ in times), default=None)

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def slope(points: list[tuple[float, float]]) -> tuple[float | None, float | None]:
    """Least-squares slope of y over x: seconds of waiting per second of added round trip,
    i.e. how many round trips run one after another; and its standard error (None under three
    points)."""
    if len({x for x, _ in points}) < 2:
        return None, None
    mx = statistics.fmean(x for x, _ in points)
    my = statistics.fmean(y for _, y in points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    if len(points) < 3:
        return b, None
    residuals = sum((y - my - b * (x - mx)) ** 2 for x, y in points)
    return b, (residuals / (len(points) - 2) / sxx) ** 0.5


def trips(times: dict[int, list[float]]) -> tuple[float | None, float | None]:
    """The round trips (slope, standard error) of times by added round-trip time in ms."""
    return slope([(rtt / 1000, x) for rtt, xs in times.items() for x in xs])


# A slope from one run per round-trip time cannot tell the added round trips from the runs' own
# spread (a start varies by tenths of a second on a busy machine, the added round trips make
# 0.15 s at most): `--quick` measures no round trips.
SLOPE_MIN_RUNS = 2


def shown_slope(
    value: float | None, error: float | None, runs: int
) -> tuple[float | None, str | None]:
    """A round-trip count as the results show it, or None and why it cannot be measured: from
    fewer than SLOPE_MIN_RUNS runs per round-trip time, or negative (waiting on the network
    never makes a program quicker: the runs' spread was larger than what they measure)."""
    if value is None:
        return None, "not measured: fewer than two round-trip times"
    if runs < SLOPE_MIN_RUNS:
        return None, (
            f"not measured: {runs} run per added round-trip time (--quick); a slope needs"
            f" {SLOPE_MIN_RUNS} at least to tell the added round trips from the runs' spread"
        )
    if value < 0:
        spread = "" if error is None else f" ± {error:.2f}"
        return None, (
            f"not measured: the slope came out negative ({value:.2f}{spread}), the runs'"
            " spread larger than the added round trips"
        )
    return round(value, 2), None


# -- the apps in a pseudo-terminal -------------------------------------------------------------


def curl_jq_feature_list(url: str, token: str, project: str) -> list[str]:
    """`feature list`'s yardstick (the issue's): curl + jq of its two URLs, ui-config then the
    project's first search page, on one connection. Needs curl and jq (`shutil.which`)."""
    page = f"{url}/api/admin/search/features?sortBy=name&sortOrder=asc&offset=0&limit=100"
    script = (
        f"curl -sf -H 'Authorization: {token}' '{url}/api/admin/ui-config'"
        f" '{page}&project=IS%3A{project}' | jq . > /dev/null"
    )
    return ["bash", "-o", "pipefail", "-c", script]


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
        # The checkout's code, not whichever one the shared virtualenv's editable install names.
        "PYTHONPATH": str(ROOT),
    }
    return env


@contextmanager
def flagtui_term(
    sb: Sandbox,
    area: str | None = None,
    *,
    project: str | None = None,
    url: str | None = None,
    home: Path | None = None,
    ca_bundle: Path | None = None,
) -> Iterator[Term]:
    """The real `flagtui` console script on `sb` (through `url`, a proxy, when given), with no
    config file (with `ca_bundle`, one profile trusting it) and fresh state: only `area` and
    `project` remembered, when given. With `home`, that home is used and kept (what the app
    remembered and cached stays for the next run, the area and project set as given: the
    features area when no area is)."""
    keep = home is not None
    home = home or Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))
    env = base_env(home)
    env["UNLEASH_API_TOKEN"] = sb.token
    if ca_bundle is None:
        env["UNLEASH_URL"] = url or sb.url
    else:  # a certificate to trust needs a profile (the token still comes from the env)
        config = home / "config" / "flagtui" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(
            f'default_profile = "bench"\n[profiles.bench]\nurl = "{url or sb.url}"\n'
            f'ca_bundle = "{ca_bundle}"\n'
        )
    if area or project:
        state = home / "state" / "flagtui" / "state.json"
        state.parent.mkdir(parents=True, exist_ok=True)
        name = "env" if ca_bundle is None else "bench"  # the profile the state is kept under
        kept = json.loads(state.read_text()).get(name, {}) if state.exists() else {}
        kept.update({"area": area or "features", "project": project or kept.get("project")})
        state.write_text(json.dumps({name: {k: v for k, v in kept.items() if v}}))
    term = Term([FLAGTUI], env, COLS, ROWS, cwd=str(home))
    try:
        yield term
    finally:
        term.close()
        if not keep:
            shutil.rmtree(home, ignore_errors=True)


def row_cache_of(home: Path) -> Path:
    """Where flagtui keeps its cached rows in a bench home (XDG_CACHE_HOME = home/cache)."""
    return home / "cache" / "flagtui" / "rows"


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


def fresh_page(marker: str) -> Callable[[Term], bool]:
    """The features area's first page from the server ("page 1/…", which cached rows never
    show) with `marker`, its first feature, on screen."""
    return lambda t: t.has(marker) and t.has("page 1/")


def failures_read(t: Term) -> bool:
    """The failures view has read everything: the features page left, nothing loading or
    reading, its status counting what it read ("window all (w) · 202 failures")."""
    busy = t.has("loading") or t.has("reading")
    return not t.has("page 1/") and not busy and t.has(" failures · ")


def marker_of(name: str) -> str:
    return name[:15]  # long names are clipped with "…" in narrow terminals


def table_region(t: Term) -> tuple[int, int]:
    """Lines of a DataTable's rows: below its header line ("Name ... Type"), above the footer."""
    for y, line in enumerate(t.screen.display):
        words = line.split()
        if words[:2] == ["Name", "Type"]:
            return y + 1, ROWS - 2
    raise RuntimeError("no table header on screen:\n" + t.text())


def quiet(t: Term) -> None:
    t.settle(0.05, 5)


def press_table(t: Term, key: str, timeout: float = 10) -> float:
    a, b = table_region(t)
    quiet(t)
    before = t.signature(a, b)
    return t.press(key, lambda t: t.signature(a, b) != before, timeout)


def areas() -> dict[str, Any]:
    from flagtui.tui.areas import AREAS

    return {a.name: a for a in AREAS}
