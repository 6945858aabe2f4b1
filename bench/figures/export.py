"""`flagtui export` of the large data set's project nearest 5,000 flags (one environment): its
requests (the sandbox counts them, by route), its peak RSS and its wall time, and the same
export again to check it is byte-identical. Export reads a page of names from the feature
search, then each flag in full (fleet/flag_export.py says why not Unleash's export route):
requests grow with flags, memory with one page."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.harness import PY, ROOT, Sandbox, base_env, rnd

TARGET_FLAGS = 5_000
# The command in-process, then its own peak RSS (ru_maxrss, kB on Linux) on the last line.
RUN = (
    "import resource, sys; from flagtui.cli import main; code = main(sys.argv[1:]);"
    " print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr);"
    " sys.exit(code)"
)


def bench_export(large: Sandbox, tmp: Path) -> dict[str, Any]:
    projects = large.get("/api/admin/projects")["projects"]
    project = min(projects, key=lambda p: abs(int(p.get("featureCount") or 0) - TARGET_FLAGS))
    env = {**base_env(tmp / "home-export"), "UNLEASH_URL": large.url,
           "UNLEASH_API_TOKEN": large.token}  # fmt: skip
    files = []
    figures: dict[str, Any] = {}
    for attempt in range(2):
        out = tmp / f"export-{attempt}.toml"
        large.reset_counts()
        t0 = time.perf_counter()
        done = subprocess.run(
            [PY, "-c", RUN, "export", "--project", project["id"], "--env", "production",
             "-f", str(out), "-o", "json"],
            env=env, cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        seconds = time.perf_counter() - t0
        lines = done.stderr.strip().splitlines()
        answer = json.loads(lines[-2])["answer"]
        if attempt == 0:
            counts = large.counts()
            figures = {
                "export_flags": answer["flags"],
                "export_requests": counts["total"],
                "export_requests_search": sum(
                    n for route, n in counts["by_route"].items() if "/search/features" in route
                ),
                "export_rss_mb": rnd(int(lines[-1]) / 1024, 1),
                "export_s": rnd(seconds, 1),
                "export_file_mb": rnd(out.stat().st_size / 1e6, 2),
            }
        files.append(out.read_bytes())
    figures["export_byte_identical"] = files[0] == files[1]
    return figures
