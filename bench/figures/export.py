"""Flags as code at the large data set's scale (50,000 flags, 43,901 of them live, in 7
projects): `flagtui export` of every project in one environment, and `flagtui plan` of that
file against the same server (nothing to do); `flagtui diff` of two
profiles of the same server (two sides of the same flags: the figure with a target) and of
two environments of every project (most flags differ: what is held then is the differences);
each command's requests (the sandbox counts them, by route), its peak RSS and its wall time.
Beside them, the web UI's export of the same flags: one export request a project, as the web
UI sends it (`POST /api/admin/features-batch/export` with the project; archived flags too).

flagtui reads each project's names (its feature list), then for a page of PAGE names one
export an environment, and each flag with several strategies in an environment by itself
(the route does not say their order: fleet/flag_pages.py), so requests grow with pages and
with those flags."""

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
EXPORT_TARGETS = {
    "export_rss_mb": ("<=", 400),
    "plan_rss_mb": ("<=", 400),
    "diff_rss_mb": ("<=", 400),
}


def _env(large: Sandbox, tmp: Path) -> dict[str, str]:
    return {**base_env(tmp / "home-export"), "UNLEASH_URL": large.url,
            "UNLEASH_API_TOKEN": large.token}  # fmt: skip


def _profiles(large: Sandbox, tmp: Path) -> None:
    """Profiles `a` and `b`, both the large sandbox: two sides of the same 50,000 flags."""
    env = {k: v for k, v in _env(large, tmp).items() if not k.startswith("UNLEASH_")}
    for name in ("a", "b"):
        subprocess.run([PY, "-m", "flagtui", "login", "--profile", name, "--url", large.url],
                       input=large.token + "\n", env=env, cwd=ROOT, capture_output=True,
                       text=True, check=True)  # fmt: skip


def _command(large: Sandbox, tmp: Path, *argv: str) -> tuple[dict[str, Any], str, float, int]:
    """The command's JSON answer, its stdout, its seconds and its peak RSS (kB)."""
    env = _env(large, tmp)
    if argv[0] == "diff" and "-P" in argv:
        env = {k: v for k, v in env.items() if not k.startswith("UNLEASH_")}
    t0 = time.perf_counter()
    done = subprocess.run([PY, "-c", RUN, *argv], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)  # fmt: skip
    seconds = time.perf_counter() - t0
    lines = done.stderr.strip().splitlines()
    answer = json.loads(lines[-2]) if argv[0] == "export" else {}  # its summary, on stderr
    return answer, done.stdout, seconds, int(lines[-1])


def _requests(large: Sandbox) -> dict[str, int]:
    routes = large.counts()["by_route"]

    def summed(part: str, method: str = "") -> int:
        return sum(n for route, n in routes.items() if part in route and route.startswith(method))

    return {
        "total": large.counts()["total"],
        "exports": summed("/features-batch/export"),
        "lists": sum(
            n
            for route, n in routes.items()
            if route.startswith("GET") and route.endswith("/features") and "/projects/" in route
        ),
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
        "export_requests_lists": asked["lists"],
        "export_requests_flag_reads": asked["flag_reads"],
        "export_rss_mb": rnd(rss / 1024, 1),
        "export_s": rnd(seconds, 1),
        "export_file_mb": rnd(out.stat().st_size / 1e6, 2),
    }
    large.reset_counts()
    _, shown, seconds, rss = _command(large, tmp, "plan", str(out), "-o", "json")
    figures.update({
        "plan_changes": json.loads(shown)["changes"],
        "plan_requests": _requests(large)["total"],
        "plan_rss_mb": rnd(rss / 1024, 1),
        "plan_s": rnd(seconds, 1),
    })  # fmt: skip
    _profiles(large, tmp)
    for key, sides in (("diff", ("-P", "a", "-P", "b")),
                       ("diff_envs", ("--env", "development", "--env", ENV))):  # fmt: skip
        large.reset_counts()
        _, shown, seconds, rss = _command(large, tmp, "diff", *sides, "-o", "json")
        asked = _requests(large)
        figures.update({
            f"{key}_differences": len(json.loads(shown)),
            f"{key}_requests": asked["total"],
            f"{key}_requests_exports": asked["exports"],
            f"{key}_requests_flag_reads": asked["flag_reads"],
            f"{key}_rss_mb": rnd(rss / 1024, 1),
            f"{key}_s": rnd(seconds, 1),
        })  # fmt: skip
    large.reset_counts()
    figures.update(_web_export(large, projects))
    return figures
