"""Flags as code at the large data set's scale (50,000 flags in 11 projects): `flagtui export` of
every project in one environment, and `flagtui diff` of two environments of every project (two
sides of 50,000 flags), each command's requests (the sandbox counts them, by route), its peak
RSS and its wall time; beside them, the web UI's export of the same flags (one export request a
project, as the web UI sends it: `POST /api/admin/features-batch/export` with the project).

flagtui reads a page of PAGE names from the feature search, one export an environment for the
page, and each flag with several strategies in an environment by itself (the route does not
say their order: fleet/flag_pages.py), so requests grow with pages and with those flags."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.harness import PY, ROOT, Sandbox, base_env, rnd

ENV = "production"
# The command in-process, then its own peak RSS (ru_maxrss, kB on Linux) on the last line.
RUN = (
    "import resource, sys; from flagtui.cli import main; code = main(sys.argv[1:]);"
    " print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr);"
    " sys.exit(code)"
)
EXPORT_TARGETS = {"export_rss_mb": ("<=", 400), "diff_rss_mb": ("<=", 400)}


def _command(large: Sandbox, tmp: Path, *argv: str) -> tuple[dict[str, Any], str, float, int]:
    """The command's JSON answer, its stdout, its seconds and its peak RSS (kB)."""
    env = {**base_env(tmp / "home-export"), "UNLEASH_URL": large.url,
           "UNLEASH_API_TOKEN": large.token}  # fmt: skip
    t0 = time.perf_counter()
    done = subprocess.run([PY, "-c", RUN, *argv], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)  # fmt: skip
    seconds = time.perf_counter() - t0
    lines = done.stderr.strip().splitlines()
    return json.loads(lines[-2]) if len(lines) > 1 else {}, done.stdout, seconds, int(lines[-1])


def _requests(large: Sandbox) -> dict[str, int]:
    routes = large.counts()["by_route"]

    def summed(part: str, method: str = "") -> int:
        return sum(n for route, n in routes.items() if part in route and route.startswith(method))

    return {
        "total": large.counts()["total"],
        "exports": summed("/features-batch/export"),
        "searches": summed("/search/features"),
        "flag_reads": summed("/features/", "GET"),
    }


def _web_export(large: Sandbox, projects: list[str]) -> dict[str, Any]:
    t0 = time.perf_counter()
    size = flags = 0
    for project in projects:
        answer = large.http.post(
            "/api/admin/features-batch/export",
            json={"project": project, "environment": ENV},
            timeout=600,
        )
        answer.raise_for_status()
        size += len(answer.content)
        flags += len(answer.json()["features"])
    return {
        "web_export_requests": len(projects),
        "web_export_flags": flags,
        "web_export_s": rnd(time.perf_counter() - t0, 1),
        "web_export_answer_mb": rnd(size / 1e6, 1),
    }


def bench_export(large: Sandbox, tmp: Path) -> dict[str, Any]:
    projects = [p["id"] for p in large.get("/api/admin/projects")["projects"]]
    out = tmp / "export.toml"
    large.reset_counts()
    answer, _, seconds, rss = _command(large, tmp, "export", "--env", ENV, "-f", str(out),
                                       "-o", "json")  # fmt: skip
    asked = _requests(large)
    figures: dict[str, Any] = {
        "export_flags": answer["answer"]["flags"],
        "export_requests": asked["total"],
        "export_requests_exports": asked["exports"],
        "export_requests_search": asked["searches"],
        "export_requests_flag_reads": asked["flag_reads"],
        "export_rss_mb": rnd(rss / 1024, 1),
        "export_s": rnd(seconds, 1),
        "export_file_mb": rnd(out.stat().st_size / 1e6, 2),
    }
    large.reset_counts()
    _, shown, seconds, rss = _command(large, tmp, "diff", "--env", "development", "--env", ENV,
                                      "-o", "json")  # fmt: skip
    asked = _requests(large)
    figures.update({
        "diff_differences": len(json.loads(shown)),
        "diff_requests": asked["total"],
        "diff_requests_exports": asked["exports"],
        "diff_requests_flag_reads": asked["flag_reads"],
        "diff_rss_mb": rnd(rss / 1024, 1),
        "diff_s": rnd(seconds, 1),
    })  # fmt: skip
    large.reset_counts()
    figures.update(_web_export(large, projects))
    return figures
