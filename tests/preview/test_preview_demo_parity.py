"""Every flag the demo serves in production (its generated rollouts, constraints, segments,
strategy and environment variants, child flags, the hostile project, and the three rollout
examples of `flagtui/sandbox/demo_rollouts.py`) previews as the official SDK evaluates it."""

from __future__ import annotations

import httpx
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


def test_every_demo_flag_previews_as_the_sdk_evaluates_it(
    sandbox: SandboxServer, admin_http: httpx.Client
) -> None:
    segments = segments_of(admin_http)
    few, many = user_contexts(120), user_contexts(3_000, seed=7)
    sdk = start_sdk(sandbox)
    examples, children, answers = 0, 0, set()
    try:
        for name, definition in sdk.feature_definitions().items():
            record = flag_record(admin_http, definition["project"], name)
            parents = parents_of(admin_http, record)
            preview = Preview(record, ENVIRONMENT, segments=segments, related=parents)
            strategies = next(e for e in record["environments"] if e["name"] == ENVIRONMENT)
            example = any(s.get("title") in ROLLOUT_EXAMPLES for s in strategies["strategies"])
            examples += example
            children += bool(parents)
            for context in many if example else few:
                mine = preview.evaluate({**context, "appName": APP_NAME})
                variant = sdk.get_variant(name, context)
                assert mine.enabled is sdk.is_enabled(name, context), (name, context)
                assert mine.variant == variant["name"], (name, context)
                assert mine.payload == variant.get("payload"), (name, context)
                answers.add((mine.enabled, mine.variant != "disabled"))
    finally:
        sdk.destroy()
    assert examples == len(ROLLOUT_EXAMPLES) and children > 0
    assert answers == {(False, False), (True, False), (True, True)}
