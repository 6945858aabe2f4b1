"""What the preview feeds the engine (the client API's shape, as real Unleash builds it from the
admin API's records), what it refuses to guess, and its answers for proposed changes."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest
from sdk_parity import APP_NAME, ENVIRONMENT, flag_record, segments_of, user_contexts
from yggdrasil_engine.engine import UnleashEngine

from flagtui.api.models import Feature
from flagtui.preview import (
    Preview,
    PreviewError,
    before_after,
    client_feature,
    client_state,
    evaluate,
    population,
    sdk_context,
)
from flagtui.preview.fast_path import through_the_wrapper, variant_asker


def strategy(sort_order: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": f"s{sort_order}",
        "name": "flexibleRollout",
        "title": f"title {sort_order}",
        "disabled": False,
        "featureName": "checkout",
        "sortOrder": sort_order,
        "segments": [],
        "constraints": [],
        "variants": [],
        "parameters": {"rollout": "100", "stickiness": "default", "groupId": "checkout"},
        **fields,
    }


def record(*strategies: dict[str, Any], enabled: bool = True, **env: Any) -> dict[str, Any]:
    """A flag as `GET /api/admin/projects/:p/features/:f` returns it."""
    return {
        "name": "checkout",
        "project": "default",
        "type": "release",
        "impressionData": True,
        "environments": [
            {"name": "development", "enabled": False, "strategies": [], "variants": []},
            {
                "name": ENVIRONMENT,
                "enabled": enabled,
                "strategies": list(strategies),
                "variants": env.get("variants", []),
            },
        ],
        "variants": [{"name": "feature-level-ignored", "weight": 1000}],
        "dependencies": env.get("dependencies", []),
    }


def production(flag: dict[str, Any]) -> dict[str, Any]:
    env: dict[str, Any] = next(e for e in flag["environments"] if e["name"] == ENVIRONMENT)
    return env


def test_the_client_shape_is_real_unleashs() -> None:
    flag = record(
        strategy(2, parameters={"rollout": 25, "stickiness": "userId", "flag": True}),
        strategy(0, disabled=True),
        strategy(1, segments=[7], name="default", parameters={}),
        variants=[{"name": "env-v", "weight": 1000, "weightType": "variable"}],
    )
    assert client_feature(flag, ENVIRONMENT) == {
        "name": "checkout",
        "type": "release",
        "project": "default",
        "enabled": True,
        "stale": False,
        "impressionData": True,
        # sorted by sortOrder, the disabled one left out; ids, titles and orders dropped
        "strategies": [
            {
                "name": "default",
                "constraints": [],
                "parameters": {},
                "variants": [],
                "segments": [7],
            },
            {
                "name": "flexibleRollout",
                "constraints": [],
                "parameters": {"rollout": "25", "stickiness": "userId", "flag": "true"},
                "variants": [],
            },
        ],
        "variants": [{"name": "env-v", "weight": 1000, "weightType": "variable"}],
    }


def test_only_the_segments_named_are_sent_and_a_missing_one_is_refused() -> None:
    flag = record(strategy(0, segments=[2]))
    segments = [
        {"id": 1, "name": "one", "constraints": [], "description": "x"},
        {"id": 2, "name": "two", "constraints": [{"contextName": "userId", "operator": "IN"}]},
    ]
    state = client_state(flag, ENVIRONMENT, segments)
    assert state["segments"] == [
        {"id": 2, "name": "two", "constraints": [{"contextName": "userId", "operator": "IN"}]}
    ]
    with pytest.raises(PreviewError, match="segment 2"):
        client_state(flag, ENVIRONMENT, segments[:1])


def test_an_unknown_environment_or_parent_is_refused_not_guessed() -> None:
    with pytest.raises(PreviewError, match=r"no environment 'staging' \(it has: development"):
        evaluate(record(), "staging", {"userId": "u-1"})
    child = record(dependencies=[{"feature": "parent", "enabled": True}])
    with pytest.raises(PreviewError, match="depends on 'parent'"):
        evaluate(child, ENVIRONMENT)
    parent = {**record(enabled=False), "name": "parent"}
    assert evaluate(child, ENVIRONMENT, related=[parent]).enabled is False
    parent = {**record(), "name": "parent"}
    assert evaluate(child, ENVIRONMENT, related=[parent]).enabled is True


def test_a_pydantic_record_previews_as_its_json_does(admin_http: httpx.Client) -> None:
    name = "admin-one-click-pricing"  # a demo rollout example: an A/B split
    raw = flag_record(admin_http, "default", name)
    model = Feature.model_validate(raw)
    assert client_feature(model, ENVIRONMENT) == client_feature(raw, ENVIRONMENT)
    segments = segments_of(admin_http)
    for user in ("u-1", "u-2", "u-3"):
        context = {"userId": user, "appName": APP_NAME}
        assert evaluate(model, ENVIRONMENT, context, segments=segments) == evaluate(
            raw, ENVIRONMENT, context, segments=segments
        )


def test_before_and_after_a_proposed_change() -> None:
    before = record(strategy(0, parameters={"rollout": "100", "groupId": "checkout"}))
    after = copy.deepcopy(before)
    production(after)["strategies"][0]["parameters"]["rollout"] = 0  # a number, as typed
    change = before_after(before, after, ENVIRONMENT, {"userId": "u-1"})
    assert change.changed
    assert (change.before.enabled, change.after.enabled) == (True, False)
    only_u1 = copy.deepcopy(before)
    production(only_u1)["strategies"][0]["constraints"] = [
        {"contextName": "userId", "operator": "IN", "values": ["u-1"]}
    ]
    assert evaluate(only_u1, ENVIRONMENT, {"userId": "u-1"}).enabled is True
    assert evaluate(only_u1, ENVIRONMENT, {"userId": "u-2"}).enabled is False
    same = before_after(before, copy.deepcopy(before), ENVIRONMENT, {"userId": "u-9"})
    assert not same.changed


def test_a_population_splits_as_the_rollout_and_variants_say() -> None:
    split = [
        {"name": "a", "weight": 250, "weightType": "fix", "stickiness": "default"},
        {"name": "b", "weight": 750, "weightType": "variable", "stickiness": "default"},
    ]
    flag = record(strategy(0, parameters={"rollout": "10"}, variants=split))
    counted = population(flag, ENVIRONMENT, 10_000)
    assert counted.users == 10_000 and 900 <= counted.enabled <= 1_100
    assert counted.variants["disabled"] == 10_000 - counted.enabled
    assert counted.variants["a"] + counted.variants["b"] == counted.enabled
    assert 0.2 < counted.variants["a"] / counted.enabled < 0.3


def test_a_population_counts_what_evaluating_each_user_gives(admin_http: httpx.Client) -> None:
    """The population's fast path into the engine answers what its Python wrapper answers, user
    by user."""
    segments = segments_of(admin_http)
    for name in ("admin-one-click-pricing", "admin-v2-retry"):
        preview = Preview(flag_record(admin_http, "default", name), ENVIRONMENT, segments=segments)
        context = {"appName": APP_NAME, "tenantId": "acme-beta", "currentTime": "2026-01-01"}
        counted = preview.population(2_000, context)
        each = [preview.evaluate({**context, "userId": f"u-{i}"}) for i in range(1, 2_001)]
        variants: dict[str, int] = {}
        for answer in each:
            variants[answer.variant] = variants.get(answer.variant, 0) + 1
        assert counted.enabled == sum(a.enabled for a in each)
        assert dict(counted.variants) == variants
        # each user's answer, payload included (`flagtui playground --users` compares them)
        assert list(preview.answers(2_000, context)) == [
            (f"u-{i}", answer) for i, answer in enumerate(each, 1)
        ]


def test_the_fast_path_answers_what_the_wrapper_answers(admin_http: httpx.Client) -> None:
    segments = segments_of(admin_http)
    contexts = [
        json.dumps(sdk_context({**c, "appName": APP_NAME}, ENVIRONMENT)).encode()
        for c in user_contexts(500)
    ]
    for name in ("admin-one-click-pricing", "admin-v2-retry"):
        engine = UnleashEngine()
        state = client_state(flag_record(admin_http, "default", name), ENVIRONMENT, segments)
        engine.take_state(json.dumps(state))
        fast, slow = variant_asker(engine, name), through_the_wrapper(engine, name)
        for context in contexts:
            a, b = fast(context), slow(context)
            assert (a["name"], a["enabled"], a["featureEnabled"], a.get("payload")) == (
                b["name"],
                b["enabled"],
                b["featureEnabled"],
                b["payload"],
            )


def test_a_flag_the_engine_cannot_read_is_refused() -> None:
    broken = record(strategy(0, constraints="not a list of constraints"))
    with pytest.raises(PreviewError, match="could not read flag 'checkout'"):
        Preview(broken, ENVIRONMENT)
