"""9. Evaluation previews (issue 25): one context before and after a proposed change, and a
population of 10,000 synthetic userIds, evaluated locally by flagtui.preview (yggdrasil-engine).

The flag is the demo's A/B split (a 100 % flexibleRollout with two strategy variants, one of
the rollout examples of flagtui/sandbox/demo_rollouts.py), read once from the demo sandbox
with the server's segments, as the feature detail holds them: the figures start "after the
flag is loaded". The proposed change sets its rollout to 10 %. Every timing includes turning
the records into the client API's shape and loading the engine (before/after loads two).
"""

from __future__ import annotations

import copy
import time
from typing import Any

from bench.harness import Sandbox, median, rnd

ENVIRONMENT = "production"
CONTEXT = {"userId": "u-42", "appName": "bench", "tenantId": "acme-beta"}


def _ab_split(sb: Sandbox) -> dict[str, Any]:
    page = sb.get("/api/admin/search/features", project="IS:default", limit=50)
    for row in page["features"]:
        flag: dict[str, Any] = sb.get(f"/api/admin/projects/default/features/{row['name']}")
        env = next(e for e in flag["environments"] if e["name"] == ENVIRONMENT)
        if any(s.get("title") == "A/B split" for s in env["strategies"]):
            return flag
    raise RuntimeError("the demo's A/B split flag was not found")


def bench_preview(sb: Sandbox, runs: int, population_runs: int) -> dict[str, Any]:
    from flagtui.preview import Preview, before_after

    flag = _ab_split(sb)
    segments = sb.get("/api/admin/segments")["segments"]
    proposed = copy.deepcopy(flag)
    env = next(e for e in proposed["environments"] if e["name"] == ENVIRONMENT)
    env["strategies"][0]["parameters"]["rollout"] = "10"

    before_after(flag, proposed, ENVIRONMENT, CONTEXT, segments=segments)  # warm-up
    pairs, loaded, populations = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        before_after(flag, proposed, ENVIRONMENT, CONTEXT, segments=segments)
        pairs.append(time.perf_counter() - t0)
    preview = Preview(flag, ENVIRONMENT, segments=segments)
    for _ in range(runs):
        t0 = time.perf_counter()
        preview.evaluate(CONTEXT)
        loaded.append(time.perf_counter() - t0)
    for _ in range(population_runs):
        t0 = time.perf_counter()
        counted = Preview(flag, ENVIRONMENT, segments=segments).population(10_000)
        populations.append(time.perf_counter() - t0)
        assert counted.enabled == 10_000, counted  # a 100 % rollout: every user is counted
    ms = [x * 1000 for x in pairs]
    return {
        "preview_before_after_ms": rnd(median(ms), 2),
        "preview_before_after_max_ms": rnd(max(ms), 2),
        "preview_one_context_loaded_ms": rnd(median([x * 1000 for x in loaded]), 3),
        "preview_population_10k_s": rnd(median(populations)),
        "preview_population_10k_max_s": rnd(max(populations)),
    }
