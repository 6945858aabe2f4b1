"""The preview's "after" side is what Unleash stores, not what was typed (issue 43): variants
sorted by name (ICU's order, as `localeCompare` gives it), weights distributed as Unleash's
`fixVariantWeights` distributes them, a gradual rollout's defaults. The rules are checked
against real servers in tests/conformance/intent/test_intent_stored_variants_on_real_unleash.py;
here, table by table, at their edges."""

from __future__ import annotations

from typing import Any

import pytest

from flagtui.api.models import Feature, Strategy, Variant
from flagtui.contract import variant_order
from flagtui.preview import (
    PreviewError,
    before_after,
    stored_strategy,
    stored_variants,
    with_strategy,
    with_variants,
)
from flagtui.tui.screens.strategy_preview import contexts_of, outlook, proposed


def v(name: str, weight: int = 0, kind: str = "variable", **more: Any) -> dict[str, Any]:
    return {"name": name, "weight": weight, "weightType": kind, "stickiness": "default", **more}


def stored(*given: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(x["name"], x["weight"], x["weightType"]) for x in stored_variants(given)]


# (typed, stored): name, weight, weightType.
WEIGHTS = [
    pytest.param([v("only")], [("only", 1000, "variable")], id="one variant takes all"),
    pytest.param(
        [v("red"), v("blue")],
        [("blue", 500, "variable"), ("red", 500, "variable")],
        id="typed out of name order",
    ),
    pytest.param(
        [v("c"), v("b"), v("a")],
        [("a", 333, "variable"), ("b", 333, "variable"), ("c", 334, "variable")],
        id="the remainder to the first typed, before sorting",
    ),
    pytest.param(
        [v("x", 1000, "fix"), v("y")],
        [("x", 1000, "fix"), ("y", 0, "variable")],
        id="a fixed weight of 1000 leaves the variable one 0",
    ),
    pytest.param(
        [v("b", 300, "fix"), v("a", 700, "variable")],
        [("a", 700, "variable"), ("b", 300, "fix")],
        id="all typed fixed: the last sent as variable gets the rest",
    ),
    pytest.param(
        [v("b", 0, "fix"), v("a", 999, "fix"), v("z", 5)],
        [("a", 999, "fix"), ("b", 0, "fix"), ("z", 1, "variable")],
        id="fixed weights kept as sent, the variable one the rest",
    ),
    pytest.param(
        [v("kept"), {"name": "dropped", "weight": 10, "stickiness": "default"}],
        [("kept", 1000, "variable")],
        id="no weightType: dropped, as Unleash drops it",
    ),
    pytest.param([], [], id="no variants"),
]


@pytest.mark.parametrize(("typed", "expected"), WEIGHTS)
def test_weights_as_unleash_stores_them(typed, expected):
    assert stored(*typed) == expected


@pytest.mark.parametrize(
    ("typed", "refusal"),
    [
        pytest.param([v("a", 500, "fix")], 'none is "variable"', id="only fixed"),
        pytest.param([v("a", 1001, "fix"), v("b")], "add up to 1001, over 1000", id="over 1000"),
    ],
)
def test_what_unleash_refuses_is_no_preview(typed, refusal):
    with pytest.raises(PreviewError, match=refusal):
        stored_variants(typed)


# Read on 6.10.1, 7.5.1 and 8.2.0 (a strategy's variants, as stored): case-blind first, then
# the lowercase one first at the first difference of case; punctuation before digits before
# letters; a shorter name before a longer one it begins.
UNLEASH_ORDER = [
    "_", "-", "~", "0", "a", "A", "a_b", "a-b", "a.b", "a~b", "a1b", "ab", "aB", "Ab", "b",
    "B", "x.", "Z", "z10", "z9",
]  # fmt: skip


def test_name_order_is_unleashs():
    typed = ["b", "A", "a", "B", "a_b", "a-b", "a.b", "a~b", "a1b", "ab", "Ab", "aB", "0", "_"]
    typed += ["~", "-", "x.", "Z", "z9", "z10"]
    assert [x["name"] for x in stored_variants(v(n) for n in typed)] == UNLEASH_ORDER
    assert sorted(typed, key=variant_order) == UNLEASH_ORDER


@pytest.mark.parametrize(
    ("first", "second"),
    [("a", "A"), ("aB", "Ab"), ("ab", "aB"), ("A", "a_"), ("a", "a-"), ("Z", "z9"), ("_", "-")],
)
def test_ties_of_case_and_prefixes(first, second):
    assert stored(v(second), v(first))[0][0] == first


def test_payloads_and_overrides_stay_with_their_variant():
    payload = {"type": "json", "value": '{"colour": "red"}'}
    overrides = [{"contextName": "userId", "values": ["u-1"]}]
    got = stored_variants([v("red", payload=payload, overrides=overrides), v("blue")])
    assert [x["name"] for x in got] == ["blue", "red"]
    assert got[1]["payload"] == payload and got[1]["overrides"] == overrides
    assert "payload" not in got[0]


@pytest.mark.parametrize(
    ("parameters", "expected"),
    [
        ({}, {"rollout": "100", "stickiness": "default", "groupId": "checkout"}),
        ({"rollout": 25}, {"rollout": 25, "stickiness": "default", "groupId": "checkout"}),
        (
            {"rollout": "0", "stickiness": "", "groupId": ""},
            {"rollout": "0", "stickiness": "sessionId", "groupId": "checkout"},
        ),
        (
            {"rollout": "5", "stickiness": "userId", "groupId": "g"},
            {"rollout": "5", "stickiness": "userId", "groupId": "g"},
        ),
    ],
)
def test_a_gradual_rollouts_defaults(parameters, expected):
    sent = {"name": "flexibleRollout", "parameters": parameters}
    sticky = "sessionId" if parameters.get("stickiness") == "" else "default"
    assert stored_strategy(sent, "checkout", default_stickiness=sticky)["parameters"] == expected


def test_other_strategies_keep_their_parameters():
    sent = {"name": "userWithId", "parameters": {"userIds": "a,b"}}
    assert stored_strategy(sent, "checkout")["parameters"] == {"userIds": "a,b"}


def flag(*strategies: dict[str, Any], variants: list[dict[str, Any]] | None = None) -> Feature:
    return Feature.model_validate(
        {
            "name": "checkout",
            "project": "default",
            "environments": [
                {"name": "development", "enabled": True, "strategies": []},
                {
                    "name": "production",
                    "enabled": True,
                    "strategies": list(strategies),
                    "variants": variants or [],
                },
            ],
        }
    )


def rollout(sid: str, order: int, percent: str, **more: Any) -> dict[str, Any]:
    parameters = {"rollout": percent, "stickiness": "default", "groupId": "checkout"}
    return {
        "id": sid,
        "name": "flexibleRollout",
        "sortOrder": order,
        "parameters": parameters,
    } | more


def test_with_strategy_replaces_in_place_or_adds_last():
    current = flag(rollout("s1", 4, "10"), rollout("s2", 7, "20"))
    replaced = with_strategy(current, "production", {**rollout("s1", 0, "50"), "sortOrder": None})
    [_, env] = replaced["environments"]
    assert [(s["id"], s["sortOrder"], s["parameters"]["rollout"]) for s in env["strategies"]] == [
        ("s1", 4, "50"),
        ("s2", 7, "20"),
    ]
    added = with_strategy(current, "production", {"name": "flexibleRollout", "parameters": {}})
    assert added["environments"][1]["strategies"][-1]["sortOrder"] == 8
    assert added["environments"][0] == replaced["environments"][0]  # development untouched


def test_with_variants_sets_the_environments_variants_as_stored():
    after = with_variants(flag(), "production", [v("red"), v("blue")])
    assert [x["name"] for x in after["environments"][1]["variants"]] == ["blue", "red"]
    assert after["environments"][0].get("variants") in (None, [])


def test_the_strategy_preview_gives_each_user_the_stored_variant():
    """Typed `red, blue`: the preview must answer what Unleash answers once it sorted them."""
    current = flag(rollout("s1", 0, "100"))
    typed = Strategy.model_validate(
        {
            **rollout("s1", 0, "100"),
            "variants": [
                Variant.model_validate(v("red", payload={"type": "string", "value": "R"})),
                Variant.model_validate(v("blue", payload={"type": "string", "value": "B"})),
            ],
        }
    )
    after = proposed(current, "production", typed)
    stored_order = with_strategy(current, "production", {**rollout("s1", 0, "100"), "variants": [
        v("blue", payload={"type": "string", "value": "B"}),
        v("red", payload={"type": "string", "value": "R"}),
    ]})  # fmt: skip
    for user in range(1, 201):
        context = {"userId": f"u-{user}"}
        mine = before_after(current, after, "production", context).after
        theirs = before_after(current, stored_order, "production", context).after
        assert mine == theirs, context


def test_the_population_has_the_typed_context():
    """`country IN [NO, SE]` and `country=NO` typed: the 10,000 users are Norwegians too."""
    constraint = {"contextName": "country", "operator": "IN", "values": ["NO", "SE"]}
    before = flag(rollout("s1", 0, "10", constraints=[constraint]))
    after = flag(rollout("s1", 0, "50", constraints=[constraint]))
    seen = outlook(before, after, "production", contexts_of("u-1", "country=NO"), [], [])
    assert 0.08 < seen.before.share < 0.12, seen.before
    assert 0.47 < seen.after.share < 0.53, seen.after
    nowhere = outlook(before, after, "production", contexts_of("u-1", "country=DK"), [], [])
    assert nowhere.before.enabled == nowhere.after.enabled == 0
