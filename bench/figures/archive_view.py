"""The failures view's first use on an archive (issue 26: TUI `5` → first row from the archive,
target 0.15 s): the real `flagtui` on the demo sandbox, in a home whose delivery archive
`flagtui collect --once` filled just before (so it is fresh: the view answers from it alone),
started with the first project remembered; once the fresh first page of features is on
screen, the Failures area's key is pressed and timed to the view having read everything (its
status counting the failures, nothing loading). Each run starts from a copy of the same home,
so each is a first use: nothing of the view remembered, the archive opened for the first time
in that process."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench.harness import (
    FLAGTUI,
    Sandbox,
    areas,
    base_env,
    failures_read,
    flagtui_term,
    fresh_page,
    log,
    marker_of,
    median,
    quiet,
    rnd,
)


def bench_archive_view(demo: Sandbox, runs: int) -> dict[str, Any]:
    marker = marker_of(demo.first_feature())
    project = demo.first_project()
    failures_key = areas()["failures"].key
    prepared = Path(tempfile.mkdtemp(prefix="flagtui-bench-archive-home-"))
    env = base_env(prepared) | {"UNLEASH_URL": demo.url, "UNLEASH_API_TOKEN": demo.token}

    fresh = fresh_page(marker)
    xs: list[float] = []
    try:
        for i in range(runs):
            # Collected anew each run: the archive must be fresh (a collector ran in the last
            # 90 s), or the view would read the server too.
            subprocess.run([FLAGTUI, "collect", "--once"], env=env, cwd=prepared, check=True,
                           capture_output=True)  # fmt: skip
            home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))
            shutil.copytree(prepared, home, dirs_exist_ok=True)
            with flagtui_term(demo, project=project, home=home) as t:
                t.wait_for(fresh, 30, "fresh first page")
                quiet(t)
                xs.append(t.press(failures_key, failures_read, 60))
                archive_said = t.has("archive")
            shutil.rmtree(home, ignore_errors=True)
            log(f"archive view {i}: {xs[-1]:.3f}s (archive on screen: {archive_said})")
            if not archive_said:
                raise RuntimeError("the failures view did not say it read the archive")
    finally:
        shutil.rmtree(prepared, ignore_errors=True)
    return {
        "archive_view_first_use_s": rnd(median(xs)),
        "archive_view_first_use_runs_s": [rnd(x) for x in xs],
    }
