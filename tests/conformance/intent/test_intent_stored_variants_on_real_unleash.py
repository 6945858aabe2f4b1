"""What Unleash stores for a write is what the preview's after side says it stores
(`flagtui.preview.stored`): the variants' order (names that differ only in case or
punctuation included), their weights (the remainder to the first variable ones in the order
sent), and a gradual rollout's defaults, for a strategy's variants and an environment's."""

from __future__ import annotations

from typing import Any

import pytest
from real_intent import PROJECT

from flagtui.preview import stored_strategy, stored_variants
from flagtui.preview.client_shape import parameter_text

pytestmark = pytest.mark.unleash

# Sent in this order; 900 per mille left by `A` for 19 variable ones: 47 each, 7 get 48.
NAMES = ["b", "A", "a", "B", "a_b", "a-b", "a.b", "a~b", "a1b", "ab", "Ab", "aB", "0", "_"]
NAMES += ["~", "-", "x.", "Z", "z9", "z10"]


def typed_variants() -> list[dict[str, Any]]:
    out = []
    for i, name in enumerate(NAMES):
        variant = {"name": name, "weight": 0, "weightType": "variable", "stickiness": "default"}
        if name == "A":
            variant.update(weight=100, weightType="fix")
        if i % 4 == 0:
            variant["payload"] = {"type": "string", "value": f"p-{i}"}
        out.append(variant)
    return out


def env_of(admin, flag: str, environment: str) -> dict[str, Any]:
    read = admin.get(f"/api/admin/projects/{PROJECT}/features/{flag}")
    assert read.status_code == 200, read.text
    return next(e for e in read.json()["environments"] if e["name"] == environment)


def test_a_strategys_variants_and_parameters(admin, flag):
    sent = {"name": "flexibleRollout", "parameters": {"rollout": 25}, "variants": typed_variants()}
    path = f"/api/admin/projects/{PROJECT}/features/{flag}/environments/development/strategies"
    added = admin.post(path, json=sent)
    assert added.status_code == 200, added.text
    [stored] = env_of(admin, flag, "development")["strategies"]
    expected = stored_strategy(sent, flag)
    assert stored["variants"] == expected["variants"]
    assert [v["name"] for v in stored["variants"]][:6] == ["_", "-", "~", "0", "a", "A"]
    parameters = {k: parameter_text(v) for k, v in expected["parameters"].items()}
    assert stored["parameters"] == parameters == {
        "rollout": "25", "stickiness": "default", "groupId": flag
    }  # fmt: skip


def test_an_environments_variants_with_overrides(admin, legacy_variants_flag):
    flag = legacy_variants_flag
    sent = typed_variants()
    sent[3]["overrides"] = [{"contextName": "userId", "values": ["u-1", "u-2"]}]
    path = f"/api/admin/projects/{PROJECT}/features/{flag}/environments/production/variants"
    put = admin.put(path, json=sent)
    assert put.status_code == 200, put.text
    read = admin.get(path)  # 8.x lists no variants in the flag's environments
    assert read.status_code == 200, read.text
    assert read.json()["variants"] == stored_variants(sent)
