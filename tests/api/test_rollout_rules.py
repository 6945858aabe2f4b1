"""The local checks of a rollout (constraint_rules, variant_rules, rollout_rules): pure functions
over a catalog, here the sandbox's own strategy types and context fields (real Unleash 8.2's
and the demo's), on servers of the versions flagtui knows."""

from __future__ import annotations

import pytest

from flagtui.api import InvalidArgument
from flagtui.api.constraint_rules import constraint, operators_for
from flagtui.api.models import (
    Constraint,
    ContextField,
    Segment,
    ServerInfo,
    Strategy,
    StrategyType,
    Variant,
    VariantPayload,
)
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.rollout_rules import rollout, segment_ids, strategy, unlisted_fields
from flagtui.api.variant_rules import variants
from flagtui.sandbox.catalog import CONTEXT_FIELDS, STRATEGY_TYPES


def catalog(version: str | None = None) -> RolloutCatalog:
    server = ServerInfo(version=version) if version else ServerInfo(sandbox=True, version="8.2.0")
    return RolloutCatalog(
        [StrategyType.model_validate(t) for t in STRATEGY_TYPES],
        [ContextField.model_validate(f) for f in CONTEXT_FIELDS],
        [Segment(id=1, name="beta-testers"), Segment(id=7, name="eu")],
        server,
    )


def refused(field: str, call, *args, **kwargs) -> str:
    with pytest.raises(InvalidArgument) as caught:
        call(*args, **kwargs)
    assert caught.value.field == field
    return caught.value.limit


# -- rollout and strategy ----------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 10, 100, "10", " 55 ", 10.0])
def test_a_rollout_is_a_whole_percentage(value) -> None:
    assert 0 <= rollout(value) <= 100


@pytest.mark.parametrize("value", [101, -1, "101", "10.5", 10.5, "ten", True, None, "１０"])
def test_a_rollout_outside_0_to_100_is_refused_naming_the_field(value) -> None:
    assert "0 to 100" in refused("parameters.rollout", rollout, value)


def test_a_gradual_rollout_gets_unleashs_defaults_and_strings() -> None:
    checked = strategy(
        Strategy(name="flexibleRollout", parameters={"rollout": 10}), catalog(), feature="f"
    )
    assert checked.parameters == {"rollout": "10", "stickiness": "default", "groupId": "f"}
    assert checked.constraints == checked.segments == checked.variants == []


def test_a_strategy_of_101_percent_is_refused() -> None:
    given = Strategy(name="flexibleRollout", parameters={"rollout": "101"})
    assert "0 to 100" in refused("parameters.rollout", strategy, given, catalog(), feature="f")


def test_unknown_and_deprecated_strategy_types() -> None:
    limit = refused("name", strategy, Strategy(name="flexibleRolout"), catalog(), feature="f")
    assert "did you mean flexibleRollout?" in limit
    old = Strategy(name="userWithId", parameters={"userIds": "1"})
    assert "deprecated" in refused("name", strategy, old, catalog(), feature="f")
    kept = strategy(old, catalog(), feature="f", existing=old.model_copy(update={"id": "s1"}))
    assert kept.name == "userWithId" and kept.id == "s1"


def test_parameters_are_the_types_own_and_required_ones_are_given() -> None:
    ips = Strategy(name="remoteAddress", parameters={"IPs": ["10.0.0.1", "10.0.0.2"]})
    assert strategy(ips, catalog(), feature="f").parameters == {"IPs": "10.0.0.1,10.0.0.2"}
    missing = Strategy(name="remoteAddress")
    assert "required" in refused("parameters.IPs", strategy, missing, catalog(), feature="f")
    wrong = Strategy(name="flexibleRollout", parameters={"percent": "5"})
    assert "rollout" in refused("parameters.percent", strategy, wrong, catalog(), feature="f")
    blank = Strategy(name="flexibleRollout", parameters={"stickiness": " "})
    refused("parameters.stickiness", strategy, blank, catalog(), feature="f")


def test_segments_by_name_or_id_and_unknown_ones() -> None:
    assert segment_ids(["eu", 1, "7"], catalog()) == [7, 1]
    assert "beta-testers, eu" in refused("segments[1]", segment_ids, ["eu", "nope"], catalog())
    given = Strategy(name="default", segments=[3])
    refused("segments[0]", strategy, given, catalog(), feature="f")


# -- constraints -------------------------------------------------------------------------------


def c(field: str, operator: str, *values: str, **flags) -> Constraint:
    if operator in ("IN", "NOT_IN") or operator.startswith("STR_"):
        return Constraint(context_name=field, operator=operator, values=list(values), **flags)
    return Constraint(context_name=field, operator=operator, value=values[0], **flags)


def test_a_constraint_is_sent_with_values_or_one_value() -> None:
    assert constraint(c("userId", "IN", "u-1", "u-2"), catalog()).model_dump(
        by_alias=True, exclude_none=True
    ) == {"contextName": "userId", "operator": "IN", "values": ["u-1", "u-2"]}
    semver = constraint(c("appVersion", "SEMVER_GTE", "4.2.0", inverted=False), catalog())
    assert semver.model_dump(by_alias=True, exclude_none=True) == {
        "contextName": "appVersion",
        "operator": "SEMVER_GTE",
        "value": "4.2.0",
    }


def test_an_unlisted_context_field_is_accepted_and_warned_of_with_a_near_miss() -> None:
    """As Unleash accepts it (issue 43, item 6): before, refused with no way around."""
    given = Strategy(name="default", constraints=[c("tenant", "IN", "a")])
    checked = strategy(given, catalog(), feature="f")
    assert checked.constraints == given.constraints
    [(field, said)] = unlisted_fields(checked, catalog())
    assert field == "constraints[0].contextName"
    assert said == (
        "'tenant' is not a context field of this server: SDKs must send it (did you mean tenantId?)"
    )
    refused("constraint.contextName", constraint, c(" ", "IN", "a"), catalog())


@pytest.mark.parametrize(
    ("given", "field", "said"),
    [
        (c("appVersion", "SEMVER_GT", "abc"), "value", "not a semantic version"),
        (c("appVersion", "SEMVER_GT", "v1.2.3"), "value", "not a semantic version"),
        (c("tenantSize", "NUM_GT", "ten"), "value", "not a number"),
        (c("tenantSize", "NUM_GT", "nan"), "value", "not a number"),
        (c("currentTime", "DATE_AFTER", "2026-01-31"), "value", "with its zone"),
        (c("currentTime", "DATE_AFTER", "tomorrow"), "value", "with its zone"),
        (c("email", "REGEX", "(?=x)"), "value", "look-around"),
        (c("email", "REGEX", "[a-"), "value", "regular expression"),
        (c("email", "REGEX", ".*@acme", inverted=True), "inverted", "cannot be inverted"),
        (c("userId", "IN"), "values", "at least one value"),
        (c("userId", "IN", ""), "values[0]", "1 to 100 characters"),
        (c("userId", "IN", "x" * 101), "values[0]", "1 to 100 characters"),
        (c("plan", "IN", "gold"), "values[0]", "free, pro, premium, enterprise"),
        (c("userId", "NUM_GTE", ""), "value", "exactly one value"),
        (c("userId", "DATE_AFTER", "2026-01-31T00:00:00Z"), "operator", "userId takes IN"),
        (c("currentTime", "IN", "x"), "operator", "DATE_AFTER, DATE_BEFORE"),
        (c("userId", "LIKE", "x"), "operator", "is no operator"),
    ],
)
def test_values_are_checked_by_their_operator(given, field, said) -> None:
    assert said in refused(f"constraint.{field}", constraint, given, catalog())


def test_well_formed_values_pass() -> None:
    for given in (
        c("appVersion", "SEMVER_LT", "2.0.0-beta.1+build.5"),
        c("tenantSize", "NUM_LTE", "-1.5e3"),
        c("currentTime", "DATE_BEFORE", "2026-01-31T09:00:00.000Z"),
        c("currentTime", "DATE_AFTER", "2026-01-31T09:00:00+02:00"),
        c("email", "REGEX", r"^[a-z]+@acme\.com$", case_insensitive=True),
        c("plan", "NOT_IN", "free"),
    ):
        assert constraint(given, catalog()) is not None


def test_operators_follow_the_servers_version() -> None:
    user = ContextField(name="userId")
    assert {"REGEX", "SEMVER_GTE"} <= set(operators_for(user, ServerInfo(version="8.2.0")))
    on_7 = set(operators_for(user, ServerInfo(version="7.5.1")))
    assert "REGEX" in on_7 and "SEMVER_GTE" not in on_7
    on_6 = set(operators_for(user, ServerInfo(version="6.10.1")))
    assert not on_6 & {"REGEX", "SEMVER_GTE", "SEMVER_LTE"} and "SEMVER_GT" in on_6
    limit = refused("constraint.operator", constraint, c("email", "REGEX", "x"), catalog("6.10.1"))
    assert limit == "REGEX needs Unleash 7.0 (OSS 6.10.1)"
    # 6.10.1 and 7.5.1 take an empty value in a list; 8.2.0 does not
    assert constraint(c("userId", "IN", ""), catalog("7.5.1")).values == [""]


def test_a_constraint_on_a_field_the_server_no_longer_lists_is_kept_with_a_warning() -> None:
    gone = c("oldField", "IN", "x")
    kept = Strategy(name="default", constraints=[gone])
    checked = strategy(kept, catalog(), feature="f", existing=kept.model_copy(update={"id": "a"}))
    assert checked.constraints == [gone]
    assert [f for f, _ in unlisted_fields(checked, catalog())] == ["constraints[0].contextName"]


# -- variants ----------------------------------------------------------------------------------


def v(name: str, weight: int | None = None, **more) -> Variant:
    kind = "variable" if weight is None else "fix"
    return Variant(name=name, weight=weight, weight_type=kind, **more)


def shares(given: list[Variant]) -> list[tuple[str, int, str]]:
    return [(x.name, x.weight, x.weight_type) for x in variants(given, catalog())]


def test_variable_variants_share_what_the_fixed_ones_leave() -> None:
    assert shares([v("a"), v("b"), v("c")]) == [
        ("a", 334, "variable"),
        ("b", 333, "variable"),
        ("c", 333, "variable"),
    ]
    assert shares([v("a", 200), v("b"), v("c")]) == [
        ("a", 200, "fix"),
        ("b", 400, "variable"),
        ("c", 400, "variable"),
    ]


def test_fixed_weights_must_add_up_to_1000_when_all_are_fixed() -> None:
    assert shares([v("a", 600), v("b", 400)]) == [("a", 600, "fix"), ("b", 400, "variable")]
    limit = refused("variants.weight", variants, [v("a", 600), v("b", 300)], catalog())
    assert limit.startswith("the weights add up to 900, not 1000")
    limit = refused("variants.weight", variants, [v("a", 700), v("b", 400), v("c")], catalog())
    assert "1100, over 1000" in limit
    refused("variants[0].weight", variants, [v("a", 1001), v("b")], catalog())


def test_variant_names_stickiness_and_payloads() -> None:
    refused("variants[1].name", variants, [v("a"), v("a")], catalog())
    refused("variants[0].name", variants, [v("a b")], catalog())
    mixed = [v("a", stickiness="userId"), v("b", stickiness="sessionId")]
    refused("variants[1].stickiness", variants, mixed, catalog())
    refused("variants[0].stickiness", variants, [v("a", stickiness=" ")], catalog())
    bad_json = [v("a", payload=VariantPayload(type="json", value="{"))]
    refused("variants[0].payload.value", variants, bad_json, catalog())
    bad_number = [v("a", payload=VariantPayload(type="number", value="1x"))]
    refused("variants[0].payload.value", variants, bad_number, catalog())
    fine = [v("a", payload=VariantPayload(type="json", value="null"), stickiness="userId")]
    assert variants(fine, catalog())[0].stickiness == "userId"
