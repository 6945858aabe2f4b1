"""Every flag the demo serves in production (its generated rollouts, constraints, segments,
strategy and environment variants, child flags, the hostile project, and the three rollout
examples of `flagtui/sandbox/demo_rollouts.py`) previews as the official SDK evaluates it."""

from __future__ import annotations

import httpx
import pytest
from sdk_parity import (
    APP_NAME,
    ENVIRONMENT,
    flag_record,
    parents_of,
    segments_of,
    start_sdk,
    user_contexts,
)

from flagtui.preview import Preview
from flagtui.sandbox import SandboxServer

ROLLOUT_EXAMPLES = {"10% of production", "Beta tenants", "A/B split"}
SHARDS = 4  # the flags by name, one in four per test: shorter tests, spread over the workers
FEW, MANY = user_contexts(120), user_contexts(3_000, seed=7)


@pytest.mark.slow  # every demo flag through the SDK: the full suite's, not the inner loop's
@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_demo_flag_previews_as_the_sdk_evaluates_it(
    sandbox: SandboxServer, admin_http: httpx.Client, shard: int
) -> None:
    segments = segments_of(admin_http)
    sdk = start_sdk(sandbox)
    answers = set()
    try:
        flags = sorted(sdk.feature_definitions().items())[shard::SHARDS]
        for name, definition in flags:
            record = flag_record(admin_http, definition["project"], name)
            parents = parents_of(admin_http, record)
            preview = Preview(record, ENVIRONMENT, segments=segments, related=parents)
            strategies = next(e for e in record["environments"] if e["name"] == ENVIRONMENT)
            example = any(s.get("title") in ROLLOUT_EXAMPLES for s in strategies["strategies"])
            for context in MANY if example else FEW:
                mine = preview.evaluate({**context, "appName": APP_NAME})
                variant = sdk.get_variant(name, context)
                assert mine.enabled is sdk.is_enabled(name, context), (name, context)
                assert mine.variant == variant["name"], (name, context)
                assert mine.payload == variant.get("payload"), (name, context)
                answers.add((mine.enabled, mine.variant != "disabled"))
    finally:
        sdk.destroy()
    assert answers == {(False, False), (True, False), (True, True)}  # a mix in every shard


def test_the_demo_holds_what_the_parity_test_covers(admin_http: httpx.Client) -> None:
    """Its rollout examples, child flags, segments, strategy and environment variants."""
    names = admin_http.get("/api/admin/projects/default/features").json()["features"]
    records = [flag_record(admin_http, "default", f["name"]) for f in names]
    production = [next(e for e in r["environments"] if e["name"] == ENVIRONMENT) for r in records]
    strategies = [s for e in production for s in e["strategies"]]
    assert {s.get("title") for s in strategies} >= ROLLOUT_EXAMPLES
    assert any(s["segments"] for s in strategies) and any(s["variants"] for s in strategies)
    assert any(e["variants"] for e in production)
    assert any(r["dependencies"] for r in records)
