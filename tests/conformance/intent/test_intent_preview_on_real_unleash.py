"""A preview is a promise (issue 43): what the review's preview says each user gets is what the
applications get once the change is sent. Variants typed out of name order, with payloads, a
fixed weight and (for a strategy) a constraint and a 25 % rollout, are previewed the way the
forms preview them (`strategy_preview.proposed`, `variant_preview.proposed`, then the preview's
engine), sent the way the forms send them (the admin client), and then evaluated, context by
context over 2,000 contexts, by the official Python SDK and the official Node SDK: all three
agree exactly on the flag's state, the variant and its payload."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from node_sdk import NOT_INSTALLED, installed, node_answers
from real_intent import PROJECT, flag_events_since, newest_event_id, wait_for_flag_events

from flagtui.api import AdminClient, rollout_rules, variant_rules
from flagtui.api.models import Constraint, Strategy, Variant, VariantOverride, VariantPayload
from flagtui.preview import Evaluation, Preview
from flagtui.tui.screens import strategy_preview, variant_preview

pytestmark = [pytest.mark.unleash, pytest.mark.skipif(not installed(), reason=NOT_INSTALLED)]

ENV = "production"
CONTEXTS = [{"userId": f"u-{i}", "sessionId": f"s-{i % 5}"} for i in range(1, 2001)]


def previewed(after: dict[str, Any]) -> list[dict[str, Any]]:
    preview = Preview(after, ENV)
    return [said(preview.evaluate(c)) for c in CONTEXTS]


def said(e: Evaluation) -> dict[str, Any]:
    payload = dict(e.payload) if e.payload else None
    return {"enabled": e.enabled, "variant": e.variant, "variantEnabled": e.variant_enabled,
            "payload": payload}  # fmt: skip


def three_answers(real_unleash, sdk, flag: str, preview: list[dict[str, Any]]) -> None:
    python = [sdk(ENV).answer(flag, c) for c in CONTEXTS]
    node = node_answers(real_unleash.url, sdk(ENV).client_token, ENV, flag, CONTEXTS)
    apart = [
        (context, mine, py, js)
        for context, mine, py, js in zip(CONTEXTS, preview, python, node, strict=True)
        if not mine == py == js
    ]
    enabled = sum(p["enabled"] for p in python)
    assert not apart, f"{len(apart)} of {len(CONTEXTS)} apart ({enabled} enabled): {apart[:2]}"


def sent(admin, flag: str, mark: int, kind: str, sdk) -> None:
    expected = [(kind, ENV)]
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    sdk(ENV).wait_for_revision(flag_events_since(admin, flag, mark)[-1]["id"])


def test_strategy_variants_typed_out_of_name_order(admin, sdk, enabled_flag, real_unleash):
    """`red, blue, Amber` typed; Unleash stores `Amber, blue, red` (weights 150 fixed, then 425
    each); a 25 % rollout of the sessions s-0, s-1 and s-2."""
    sdk(ENV).wait_until(enabled_flag, True)
    typed_variants = [
        Variant(name="red", payload=VariantPayload(type="json", value='{"colour": "red"}')),
        Variant(name="blue", payload=VariantPayload(type="string", value="blue!")),
        Variant(name="Amber", weight=150, weight_type="fix",
                payload=VariantPayload(type="number", value="3")),
    ]  # fmt: skip
    constraint = Constraint(context_name="sessionId", operator="IN", values=["s-0", "s-1", "s-2"])

    async def preview_then_send() -> list[dict[str, Any]]:
        async with AdminClient(real_unleash.url, real_unleash.token) as client:
            feature = await client.features.get(PROJECT, enabled_flag)
            catalog = await client.rollouts.catalog()
            [existing] = next(e for e in feature.environments or [] if e.name == ENV).strategies
            typed = Strategy(
                id=existing.id,
                name="flexibleRollout",
                parameters={"rollout": "25"},
                constraints=[constraint],
                variants=typed_variants,
            )
            checked = rollout_rules.strategy(
                typed, catalog, feature=enabled_flag, existing=existing
            )
            after = strategy_preview.proposed(feature, ENV, checked)
            preview = previewed(after)
            await client.rollouts.update(PROJECT, enabled_flag, ENV, checked, catalog=catalog)
            return preview

    mark = newest_event_id(admin)
    preview = asyncio.run(preview_then_send())
    sent(admin, enabled_flag, mark, "feature-strategy-update", sdk)
    three_answers(real_unleash, sdk, enabled_flag, preview)
    got = Counter(p["variant"] for p in preview)
    assert set(got) == {"Amber", "blue", "red", "disabled"}, got
    assert 200 < sum(p["enabled"] for p in preview) < 400  # 25 % of the 60 % in s-0..s-2


def test_environment_variants_with_overrides(admin, sdk, legacy_variants_flag, real_unleash):
    """`zeta, Alpha, mid` typed, `mid` overriding u-1 … u-40; Unleash stores `Alpha, mid,
    zeta`: the overridden users get `mid` whatever their hash, the others by weight."""
    flag = legacy_variants_flag
    sdk(ENV).wait_until(flag, True)
    overridden = [f"u-{i}" for i in range(1, 41)]
    typed = [
        Variant(name="zeta", payload=VariantPayload(type="string", value="z")),
        Variant(name="Alpha", weight=200, weight_type="fix",
                payload=VariantPayload(type="json", value='{"a": 1}')),
        Variant(name="mid", overrides=[VariantOverride(context_name="userId", values=overridden)]),
    ]  # fmt: skip

    async def preview_then_send() -> list[dict[str, Any]]:
        async with AdminClient(real_unleash.url, real_unleash.token) as client:
            feature = await client.features.get(PROJECT, flag)
            catalog = await client.rollouts.catalog()
            checked = variant_rules.variants(typed, catalog, environment=True)
            preview = previewed(variant_preview.proposed(feature, ENV, checked))
            await client.rollouts.set_variants(PROJECT, flag, ENV, checked, catalog=catalog)
            return preview

    mark = newest_event_id(admin)
    preview = asyncio.run(preview_then_send())
    sent(admin, flag, mark, "feature-environment-variants-updated", sdk)
    three_answers(real_unleash, sdk, flag, preview)
    assert all(p["variant"] == "mid" for p in preview[:40]), preview[:40]
    got = Counter(p["variant"] for p in preview[40:])
    assert set(got) == {"Alpha", "mid", "zeta"} and 0.15 < got["Alpha"] / 1960 < 0.25, got
