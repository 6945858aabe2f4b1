"""9. Optional (`--vs-web`, never in CI): flagtui against the server's own web UI, on the same
real Unleash (UNLEASH_URL on loopback), with Debian's Chromium driven by Playwright.

Both as a returning user. flagtui: started with the project remembered and its rows cached by an
uncounted start, timed from `Popen` to the first of the project's flags on screen. The web UI: a
browser already running and logged in, whose cache holds the UI's scripts from an uncounted
visit, opening the project's page in a new tab, timed from the navigation's start to the first
of the same flags in the page's text (checked on every animation frame). Memory: PSS (shared
pages split between the processes sharing them) of flagtui's process, against the sum over
every process of the browser (one profile directory names them all), each read once the rows
are shown. Runs alternate between the two.

Needs Playwright in the virtualenv (`.venv/bin/uv pip install playwright`) and Debian's
`chromium` (or FLAGTUI_BENCH_CHROMIUM naming another Chromium); the web login is
FLAGTUI_BENCH_WEB_LOGIN (`user:password`, by default scripts/unleash-oss's admin).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.harness import COLS, FLAGTUI, ROWS, Term, base_env, log, marker_of, median, quiet, rnd

CHROMIUM = os.environ.get("FLAGTUI_BENCH_CHROMIUM", "/usr/bin/chromium")
PROJECT = "default"


def missing() -> str | None:
    """Why the figure cannot run here, or None."""
    if not (os.environ.get("UNLEASH_URL") and os.environ.get("UNLEASH_API_TOKEN")):
        return "UNLEASH_URL and UNLEASH_API_TOKEN must name a real Unleash"
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM} (apt install chromium, or FLAGTUI_BENCH_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (.venv/bin/uv pip install playwright)"
    return None


def pss_mb(pids: list[int]) -> float:
    total_kb = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total_kb += int(line.split()[1])
        except OSError:  # a helper process that ended meanwhile
            continue
    return total_kb / 1024


def processes_naming(text: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def flag_names(url: str, token: str) -> list[str]:
    answer = httpx.get(
        f"{url}/api/admin/search/features",
        params={"project": f"IS:{PROJECT}", "limit": 100},
        headers={"Authorization": token},
    )
    answer.raise_for_status()
    names = [f["name"] for f in answer.json()["features"]]
    if not names:
        raise RuntimeError(f"the project {PROJECT!r} has no flags to show")
    return names


def flagtui_start(home: Path, url: str, token: str) -> Term:
    env = base_env(home)
    env.update(UNLEASH_URL=url, UNLEASH_API_TOKEN=token)
    return Term([FLAGTUI], env, COLS, ROWS, cwd=str(home))


def bench_web(runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    url, token = os.environ["UNLEASH_URL"].rstrip("/"), os.environ["UNLEASH_API_TOKEN"]
    user, _, password = os.environ.get("FLAGTUI_BENCH_WEB_LOGIN", "admin:unleash4all").partition(
        ":"
    )
    names = flag_names(url, token)
    markers = [marker_of(n) for n in names]

    def shown(t: Term) -> bool:
        return any(t.has(m) for m in markers)

    home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))
    state = home / "state" / "flagtui" / "state.json"
    state.parent.mkdir(parents=True)
    state.write_text(f'{{"env": {{"area": "features", "project": "{PROJECT}"}}}}')
    profile = Path(tempfile.mkdtemp(prefix="flagtui-bench-chromium-"))
    ours: list[float] = []
    theirs: list[float] = []
    ours_mb: list[float] = []
    theirs_mb: list[float] = []
    try:
        with flagtui_start(home, url, token) as t:  # uncounted: leaves the cached rows
            t.wait_for(lambda t: shown(t) and t.has("page 1/"), 30, "flagtui's first page")
            quiet(t)
        with sync_playwright() as play:
            browser = play.chromium.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, headless=True
            )
            login = browser.request.post(
                f"{url}/auth/simple/login", data={"username": user, "password": password}
            )
            if not login.ok:
                raise RuntimeError(f"the web login was refused ({login.status})")

            def web_rows() -> float:
                page = browser.new_page()
                t0 = time.perf_counter()
                page.goto(f"{url}/projects/{PROJECT}", wait_until="commit")
                page.wait_for_function(
                    "names => names.some(n => document.body && document.body.innerText"
                    ".includes(n))",
                    arg=names,
                    polling="raf",
                    timeout=60_000,
                )
                took = time.perf_counter() - t0
                theirs_mb.append(pss_mb(processes_naming(str(profile))))
                page.close()
                return took

            web_rows()  # uncounted: the UI's scripts and styles into the browser's cache
            for i in range(runs):
                w = web_rows()
                with flagtui_start(home, url, token) as t:
                    f = t.wait_for(shown, 30, "flagtui's first rows") - t.t0
                    t.wait_for(lambda t: t.has("page 1/"), 30, "flagtui's fresh page")
                    ours_mb.append(pss_mb([t.proc.pid]))
                    quiet(t)
                theirs.append(w)
                ours.append(f)
                log(f"vs web {i}: flagtui {f:.3f}s ({ours_mb[-1]:.0f} MB), "
                    f"web UI {w:.3f}s ({theirs_mb[-1]:.0f} MB)")  # fmt: skip
            browser.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
    mine, web = median(ours), median(theirs)
    return {
        "vs_web_rows_s": rnd(mine),
        "vs_web_web_rows_s": rnd(web),
        "vs_web_rows_speedup": rnd(web / mine if mine and web else None, 2),
        "vs_web_pss_mb": rnd(median(ours_mb), 1),
        "vs_web_web_pss_mb": rnd(median(theirs_mb[1:]), 1),
        "vs_web_runs_s": {"flagtui": [rnd(x) for x in ours], "web": [rnd(x) for x in theirs]},
    }
