"""The preview answers what the official SDK answers (issue 25, item 3): flags written through
the sandbox's admin routes, read back as the admin API gives them, evaluated by flagtui.preview
and by UnleashClient (reading the sandbox's client API) for the same 2,000 varied contexts:
`is_enabled` and the variant (name and payload) equal for every one.

Covered: flexibleRollout with default, userId and custom stickiness and a groupId of its own
or the flag's; every constraint operator, inverted and case-insensitive; segments; strategy
variants (variable and fixed weights, custom stickiness) and the order strategies are tried in;
environment variants with overrides; disabled strategies; the legacy userWithId and
remoteAddress strategies; a flag switched off. Random stickiness is left out (an SDK's answer
there is a coin toss)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sdk_parity import (
    APP_NAME,
    ENVIRONMENT,
    flag_record,
    segments_of,
    start_sdk,
    user_contexts,
)
from UnleashClient import UnleashClient

from flagtui.preview import Preview
from flagtui.sandbox import SandboxServer

CONTEXTS = user_contexts(2_000)
FEATURES = "/api/admin/projects/default/features"


def constraint(field: str, operator: str, *values: str, **options: Any) -> dict[str, Any]:
    single = operator.startswith(("NUM_", "DATE_", "SEMVER_", "REGEX"))
    shape = {"value": values[0]} if single else {"values": list(values)}
    return {"contextName": field, "operator": operator, **shape, **options}


def only_if(*constraints: dict[str, Any], **strategy: Any) -> dict[str, Any]:
    return {"name": "default", "parameters": {}, "constraints": list(constraints), **strategy}


def rollout(percent: int, stickiness: str = "default", **strategy: Any) -> dict[str, Any]:
    parameters = {"rollout": str(percent), "stickiness": stickiness}
    if "groupId" in strategy:
        parameters["groupId"] = strategy.pop("groupId")
    return {"name": "flexibleRollout", "parameters": parameters, **strategy}


def split(stickiness: str, *names: str, fixed: int | None = None) -> list[dict[str, Any]]:
    variants = [
        {
            "name": name,
            "weight": 0,
            "weightType": "variable",
            "stickiness": stickiness,
            "payload": {"type": "string", "value": f"{name}-payload"},
        }
        for name in names
    ]
    if fixed is not None:
        variants[0].update(weight=fixed, weightType="fix")
    return variants


# name: (strategies in the order they are added, switched on in production)
CASES: dict[str, tuple[list[dict[str, Any]], bool]] = {
    "rollout-default-grouped": ([rollout(37, groupId="shared-group")], True),
    "rollout-userid": ([rollout(50, "userId")], True),
    "rollout-tenant": ([rollout(40, "tenantId", groupId="tenants")], True),
    "op-in": ([only_if(constraint("tenantId", "IN", "acme-beta", "globex-beta"))], True),
    "op-in-inverted": ([only_if(constraint("country", "IN", "DE", "FR", inverted=True))], True),
    "op-not-in": ([only_if(constraint("plan", "NOT_IN", "free", "pro"))], True),
    "op-contains-ci": (
        [only_if(constraint("email", "STR_CONTAINS", "ORG", caseInsensitive=True))],
        True,
    ),
    "op-contains": ([only_if(constraint("email", "STR_CONTAINS", "ORG"))], True),
    "op-starts": ([only_if(constraint("userId", "STR_STARTS_WITH", "u-1", "u-2"))], True),
    "op-ends-inverted": (
        [only_if(constraint("email", "STR_ENDS_WITH", ".example", inverted=True))],
        True,
    ),
    "op-num-eq": ([only_if(constraint("tenantSize", "NUM_EQ", "50"))], True),
    "op-num-gt": ([only_if(constraint("tenantSize", "NUM_GT", "100"))], True),
    "op-num-gte": ([only_if(constraint("tenantSize", "NUM_GTE", "100"))], True),
    "op-num-lt": ([only_if(constraint("tenantSize", "NUM_LT", "20.5"))], True),
    "op-num-lte-inverted": (
        [only_if(constraint("tenantSize", "NUM_LTE", "120", inverted=True))],
        True,
    ),
    "op-date-after": (
        [only_if(constraint("currentTime", "DATE_AFTER", "2026-03-01T00:00:00.000Z"))],
        True,
    ),
    "op-date-before": (
        [only_if(constraint("currentTime", "DATE_BEFORE", "2025-09-15T12:00:00.000Z"))],
        True,
    ),
    "op-semver-eq": ([only_if(constraint("appVersion", "SEMVER_EQ", "1.2.3"))], True),
    "op-semver-gt": ([only_if(constraint("appVersion", "SEMVER_GT", "1.9.9"))], True),
    "op-semver-lt": ([only_if(constraint("appVersion", "SEMVER_LT", "2.0.0"))], True),
    "op-semver-gte": ([only_if(constraint("appVersion", "SEMVER_GTE", "2.0.0-beta.1"))], True),
    "op-semver-lte-inverted": (
        [only_if(constraint("appVersion", "SEMVER_LTE", "1.10.0", inverted=True))],
        True,
    ),
    "op-regex": ([only_if(constraint("email", "REGEX", r"^user\d*7@"))], True),
    "op-all-of": (
        [
            only_if(
                constraint("plan", "IN", "premium", "enterprise"),
                constraint("country", "NOT_IN", "US"),
            )
        ],
        True,
    ),
    "segments": ([rollout(80, segments=[3, 4])], True),
    "segment-of-users": ([only_if(segments=[1])], True),
    "variants-userid": ([rollout(70, variants=split("userId", "red", "green", "blue"))], True),
    "variants-fixed-tenant": (
        [rollout(85, variants=split("tenantId", "gold", "silver", "bronze", fixed=200))],
        True,
    ),
    "variants-first-in-sort-order": (
        [
            only_if(
                constraint("plan", "IN", "premium", "pro"),
                sortOrder=5,
                variants=split("default", "late-a", "late-b"),
            ),
            only_if(
                constraint("country", "IN", "DE", "SE"),
                sortOrder=1,
                variants=split("default", "early-a", "early-b"),
            ),
        ],
        True,
    ),
    "disabled-strategy-skipped": (
        [rollout(100, disabled=True), only_if(constraint("country", "IN", "SE"))],
        True,
    ),
    "only-disabled-strategies": ([rollout(0, disabled=True)], True),
    "legacy-user-with-id": (
        [{"name": "userWithId", "parameters": {"userIds": "u-3, u-5,u-8 ,1001"}}],
        True,
    ),
    "legacy-remote-address": (
        [{"name": "remoteAddress", "parameters": {"IPs": "10.0.0.1, 10.0.0.0/31"}}],
        True,
    ),
    "switched-off": ([rollout(100)], False),
}
ALWAYS = {"only-disabled-strategies": True, "switched-off": False}  # not split by users


def _write(admin: httpx.Client, name: str) -> None:
    strategies, on = CASES[name]
    assert admin.post(FEATURES, json={"name": name}).status_code == 201
    base = f"{FEATURES}/{name}/environments/{ENVIRONMENT}"
    for strategy in strategies:
        added = admin.post(f"{base}/strategies", json=strategy)
        assert added.status_code == 200, (name, added.text)
    if on:
        assert admin.post(f"{base}/on").status_code == 200


def _env_variants_flag(admin: httpx.Client, sandbox: SandboxServer) -> str:
    """A demo flag with environment variants and no strategy variants in production, given new
    ones with overrides: the variant comes from the environment's variants."""
    features = httpx.get(
        f"{sandbox.url}/api/client/features", headers={"Authorization": sandbox.client_token}
    ).json()["features"]
    flag = next(
        f
        for f in features
        if f["project"] == "default"
        and f["enabled"]
        and f["variants"]
        and f["strategies"]
        and not any(s["variants"] for s in f["strategies"])
    )
    variants = [
        {
            "name": "v-one",
            "weight": 0,
            "weightType": "variable",
            "stickiness": "default",
            "overrides": [{"contextName": "userId", "values": ["u-3", "u-5"]}],
            "payload": {"type": "json", "value": '{"one": 1}'},
        },
        {"name": "v-two", "weight": 300, "weightType": "fix", "stickiness": "default"},
        {"name": "v-three", "weight": 0, "weightType": "variable", "stickiness": "tenantId"},
    ]
    path = f"{FEATURES}/{flag['name']}/environments/{ENVIRONMENT}/variants"
    assert admin.put(path, json=variants).status_code == 200
    return str(flag["name"])


def compare(
    sdk: UnleashClient, preview: Preview, contexts: list[dict[str, Any]]
) -> tuple[set[bool], set[str]]:
    """Asserts the SDK's and the preview's answers are equal for every context; returns the
    answers seen (enabled states and variant names)."""
    seen_enabled, seen_variants = set(), set()
    for context in contexts:
        mine = preview.evaluate({**context, "appName": APP_NAME})
        enabled = sdk.is_enabled(preview.name, context)
        variant = sdk.get_variant(preview.name, context)
        assert mine.enabled is enabled, (preview.name, context)
        assert (mine.variant, mine.variant_enabled) == (variant["name"], variant["enabled"]), (
            preview.name,
            context,
            variant,
        )
        assert mine.payload == variant.get("payload"), (preview.name, context)
        seen_enabled.add(enabled)
        seen_variants.add(variant["name"])
    return seen_enabled, seen_variants


def _answers_alike(sandbox: SandboxServer, admin: httpx.Client, name: str) -> set[str]:
    """Every context compared on flag `name`; the variants seen."""
    preview = Preview(flag_record(admin, "default", name), ENVIRONMENT, segments=segments_of(admin))
    sdk = start_sdk(sandbox)
    try:
        enabled, variants = compare(sdk, preview, CONTEXTS)
    finally:
        sdk.destroy()
    # the users split (the comparison means something), but where the flag is on or off for all
    assert enabled == ({ALWAYS[name]} if name in ALWAYS else {True, False}), name
    return variants


# The inner loop (`./dev test --fast`) keeps one case of each kind; the full suite runs them all
# (each starts the SDK against the sandbox: about 1.5 s).
QUICK = {"rollout-default-grouped", "op-in", "variants-userid", "segments", "switched-off"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=() if n in QUICK else pytest.mark.slow) for n in CASES]
)
def test_each_case_answers_what_the_sdk_answers_for_every_user(
    sandbox: SandboxServer, admin_http: httpx.Client, name: str
) -> None:
    _write(admin_http, name)
    variants = _answers_alike(sandbox, admin_http, name)
    if name.startswith("variants"):
        assert len(variants - {"disabled"}) >= 2, variants


def test_environment_variants_answer_what_the_sdk_answers_for_every_user(
    sandbox: SandboxServer, admin_http: httpx.Client
) -> None:
    name = _env_variants_flag(admin_http, sandbox)
    variants = _answers_alike(sandbox, admin_http, name)
    assert {"v-one", "v-two", "v-three"} <= variants


@pytest.mark.slow  # 10,000 users through the SDK: the full suite's, not the inner loop's
def test_a_population_counts_what_the_sdk_answers(
    sandbox: SandboxServer, admin_http: httpx.Client
) -> None:
    """`population` (the engine through its C interface) against the SDK per user u-1…u-N."""
    names = ("rollout-default-grouped", "variants-userid", "segments", "op-starts")
    for name in names:
        _write(admin_http, name)
    segments = segments_of(admin_http)
    context = {"tenantId": "initech", "plan": "premium", "country": "DE"}
    sdk = start_sdk(sandbox)
    try:
        for name in names:
            preview = Preview(
                flag_record(admin_http, "default", name), ENVIRONMENT, segments=segments
            )
            counted = preview.population(3_000, {**context, "appName": APP_NAME})
            users = [{"userId": f"u-{i}", "properties": context} for i in range(1, 3_001)]
            enabled = sum(sdk.is_enabled(name, u) for u in users)
            variants: dict[str, int] = {}
            for u in users:
                variant = sdk.get_variant(name, u)["name"]
                variants[variant] = variants.get(variant, 0) + 1
            assert (counted.enabled, dict(counted.variants)) == (enabled, variants), name
            assert 0 < counted.enabled <= counted.users
    finally:
        sdk.destroy()
