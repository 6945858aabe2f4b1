"""A rollout in words (flagtui/rollout_words.py), as the TUI and the commands say it: each
constraint operator as a sentence, the segments by name, strategies in evaluation order,
weights as percentages, server text inert."""

from __future__ import annotations

from typing import Any

import pytest

from flagtui.api.models import Constraint, Strategy, Variant, VariantPayload
from flagtui.contract import CONSTRAINT_OPERATORS
from flagtui.rollout_words import (
    constraint_text,
    constraint_words,
    in_sort_order,
    parameter_words,
    segment_words,
    strategy_heading,
    strategy_lines,
    variant_words,
    variants_text,
)

from .hostile import HOSTILE, assert_shown_as_data


def constraint(operator: str, *, values: Any = (), value: str = "", **flags: bool) -> Constraint:
    wire = {"contextName": "f", "operator": operator, "values": list(values), "value": value}
    return Constraint.model_validate({**wire, **flags})


WORDS = {
    ("IN", ("u-1", "u-2")): "f is one of u-1, u-2",
    ("NOT_IN", ("RU",)): "f is not one of RU",
    ("STR_CONTAINS", ("beta",)): "f contains beta",
    ("STR_CONTAINS", ("a", "b")): "f contains any of a, b",
    ("STR_STARTS_WITH", ("emp-",)): "f starts with emp-",
    ("STR_STARTS_WITH", ("a", "b")): "f starts with any of a, b",
    ("STR_ENDS_WITH", ("@acme.example",)): "f ends with @acme.example",
    ("STR_ENDS_WITH", ("a", "b")): "f ends with any of a, b",
    ("NUM_EQ", "5"): "f = 5",
    ("NUM_GT", "5"): "f > 5",
    ("NUM_GTE", "5"): "f ≥ 5",
    ("NUM_LT", "5"): "f < 5",
    ("NUM_LTE", "5"): "f ≤ 5",
    ("DATE_AFTER", "2025-01-01T00:00:00.000Z"): "f is after 2025-01-01T00:00:00.000Z",
    ("DATE_BEFORE", "2025-01-01T00:00:00.000Z"): "f is before 2025-01-01T00:00:00.000Z",
    ("SEMVER_EQ", "1.2.0"): "f = 1.2.0 (semver)",
    ("SEMVER_GT", "1.2.0"): "f > 1.2.0 (semver)",
    ("SEMVER_GTE", "1.2.0"): "f ≥ 1.2.0 (semver)",
    ("SEMVER_LT", "1.2.0"): "f < 1.2.0 (semver)",
    ("SEMVER_LTE", "1.2.0"): "f ≤ 1.2.0 (semver)",
    ("REGEX", "^u-[0-9]+$"): "f matches ^u-[0-9]+$ (regex)",
}


def test_every_operator_of_the_contract_has_its_words() -> None:
    assert {operator for operator, _ in WORDS} == set(CONSTRAINT_OPERATORS)


@pytest.mark.parametrize(("operator", "given"), list(WORDS), ids=[f"{o}-{g}" for o, g in WORDS])
def test_each_operator_in_words(operator: str, given: Any) -> None:
    c = (
        constraint(operator, values=given)
        if isinstance(given, tuple)
        else constraint(operator, value=given)
    )
    assert constraint_words(c) == WORDS[(operator, given)]


def test_inverted_and_case_insensitive_are_said() -> None:
    inverted = constraint("IN", values=["u-1"], inverted=True)
    assert constraint_words(inverted) == "not (f is one of u-1)"
    any_case = constraint("STR_ENDS_WITH", values=["@Acme"], caseInsensitive=True)
    assert constraint_words(any_case) == "f ends with @Acme (case-insensitive)"
    both = constraint("SEMVER_GTE", value="1.2.0", inverted=True, caseInsensitive=True)
    assert constraint_words(both) == "not (f ≥ 1.2.0 (semver, case-insensitive))"


def test_missing_values_an_unknown_operator_and_a_long_list_are_said() -> None:
    assert constraint_words(constraint("IN")) == "f is one of (no values)"
    assert constraint_words(constraint("NUM_GT")) == "f > (no value)"
    # an operator newer than flagtui: the server's name for it, the values as given
    assert constraint_words(constraint("STR_FUZZY", values=["x"])) == "f STR_FUZZY x"
    many = constraint("IN", values=[f"u-{n}" for n in range(1, 251)])
    assert constraint_words(many) == (
        "f is one of u-1, u-2, u-3, u-4, u-5, u-6, u-7, u-8, u-9, u-10 and 240 more"
    )


def test_segments_by_name_or_by_id() -> None:
    names = {1: "beta-testers"}
    assert segment_words(1, names) == "segment beta-testers"
    assert segment_words(4, names) == "segment #4"
    assert segment_words(4, {}) == "segment #4"
    assert "\x1b" not in segment_words(2, {2: "\x1b]0;pwned\x07"})


def test_strategies_in_the_order_the_sdks_evaluate_them() -> None:
    strategies = [
        Strategy(name="c", sort_order=2),
        Strategy(name="none"),
        Strategy(name="a", sort_order=0),
        Strategy(name="b", sort_order=0),
        Strategy(name="first", sort_order=-1),
    ]
    assert [s.name for s in in_sort_order(strategies)] == ["first", "a", "b", "c", "none"]
    assert in_sort_order(None) == []


def test_a_gradual_rollout_and_other_parameters() -> None:
    rollout = Strategy.model_validate(
        {
            "name": "flexibleRollout",
            "title": "10% of production",
            "parameters": {"groupId": "checkout", "stickiness": "default", "rollout": 10},
        }
    )
    assert strategy_heading(rollout) == "flexibleRollout “10% of production”"
    assert parameter_words(rollout) == "rollout 10% · stickiness default · groupId checkout"
    users = Strategy(name="userWithId", parameters={"userIds": "1001,1002"})
    assert strategy_heading(users) == "userWithId"
    assert parameter_words(users) == "userIds 1001,1002"
    assert parameter_words(Strategy(name="default")) == ""


def test_variants_with_weights_as_percentages() -> None:
    control = Variant.model_validate(
        {
            "name": "control",
            "weight": 500,
            "weightType": "variable",
            "stickiness": "userId",
            "payload": {"type": "string", "value": "control"},
        }
    )
    assert variant_words(control) == "control 50% · stickiness userId · payload string control"
    third = Variant(name="a", weight=333, weight_type="fix")
    assert variant_words(third) == "a 33.3% (fixed)"
    forced = Variant.model_validate(
        {"name": "b", "weight": 0, "overrides": [{"contextName": "userId", "values": ["u-1"]}]}
    )
    assert variant_words(forced) == "b 0% · forced for userId is one of u-1"
    big = Variant.model_validate({"name": "j", "payload": {"type": "json", "value": "[1]" * 40}})
    assert variant_words(big).endswith("… (120 characters)")


def test_server_text_is_made_inert() -> None:
    s = Strategy.model_validate(
        {
            "name": "flexibleRollout",
            "title": HOSTILE,
            "parameters": {"groupId": HOSTILE},
            "constraints": [{"contextName": HOSTILE, "operator": "IN", "values": [HOSTILE]}],
        }
    )
    for words in (strategy_heading(s), parameter_words(s), constraint_words(s.constraints[0])):
        assert_shown_as_data(words)
    lines = constraint_words(constraint("IN", values=["one\nline"]))
    assert lines == "f is one of one↵line"  # a value's newline cannot break the line it is in


# The commands' terse form (`feature strategies`, `feature show`, a strategy command's output).


def test_constraints_in_the_commands_words() -> None:
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


def test_variants_and_a_strategy_in_the_commands_words() -> None:
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


def test_the_commands_words_show_server_text_as_data() -> None:
    hostile = Strategy(
        name="flexibleRollout",
        title=HOSTILE,
        parameters={"rollout": "5", "stickiness": HOSTILE, "groupId": HOSTILE},
        constraints=[Constraint(context_name=HOSTILE, operator="IN", values=[HOSTILE])],
        segments=[1],
        variants=[Variant(name=HOSTILE, weight=1000, stickiness=HOSTILE)],
    )
    for line in strategy_lines(hostile, {1: HOSTILE}):
        assert_shown_as_data(line)
