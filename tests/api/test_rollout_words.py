"""A rollout in words (`rollout_words`): what `feature strategies`, `feature show` and the
detail say of constraints, variants and strategies."""

from __future__ import annotations

from flagtui.api.models import Constraint, Strategy, Variant, VariantPayload
from flagtui.api.rollout_words import constraint_text, strategy_lines, variants_text


def test_constraints_in_words() -> None:
    def said(operator: str, *values: str, **flags: bool) -> str:
        c = Constraint(context_name="f", operator=operator, values=list(values), **flags)
        return constraint_text(c)

    assert said("IN", "a") == "f is a"
    assert said("IN", "a", "b") == "f is one of a, b"
    assert said("NOT_IN", "a", "b") == "f is not one of a, b"
    assert said("STR_ENDS_WITH", "@x.com", case_insensitive=True) == "f ends with @x.com (any case)"
    assert said("STR_CONTAINS", "a", "b") == "f contains any of a, b"
    semver = Constraint(context_name="v", operator="SEMVER_GTE", value="1.2.3", inverted=True)
    assert constraint_text(semver) == "not (v ≥ version 1.2.3)"
    # a stored single-value constraint keeps `values: []` beside its value
    stored = Constraint(context_name="n", operator="NUM_LT", values=[], value="5")
    assert constraint_text(stored) == "n < 5"


def test_variants_and_a_strategy_in_words() -> None:
    variants = [
        Variant(name="a", weight=333, weight_type="variable", stickiness="userId"),
        Variant(
            name="b",
            weight=667,
            weight_type="fix",
            payload=VariantPayload(type="string", value="x"),
        ),
    ]
    assert variants_text(variants) == "a 33.3 %, b 66.7 % fixed = string:x (sticky on userId)"
    strategy = Strategy(
        name="flexibleRollout",
        title="t",
        disabled=True,
        parameters={"rollout": "5", "stickiness": "default", "groupId": "g"},
        constraints=[Constraint(context_name="userId", operator="IN", values=["u-1"])],
        segments=[1, 9],
        variants=variants,
    )
    assert strategy_lines(strategy, {1: "beta"}) == [
        "flexibleRollout “t” 5 % by default, group g [disabled]",
        "  if userId is u-1",
        "  in segments beta, segment 9",
        "  variants a 33.3 %, b 66.7 % fixed = string:x (sticky on userId)",
    ]
    other = Strategy(name="remoteAddress", parameters={"IPs": "10.0.0.1"})
    assert strategy_lines(other, {}) == ["remoteAddress IPs=10.0.0.1"]
