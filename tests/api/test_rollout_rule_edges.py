"""The rollout checks at their edges, as tables (issue 43, item 8): an accepted value at each
edge, a refused one just past it, each refusal naming its field and saying its limit in full
(the forms mark the row the field names; the limit is what the admin reads)."""

from __future__ import annotations

import pytest

from flagtui.api import InvalidArgument
from flagtui.api.constraint_rules import UNLISTED
from flagtui.api.models import (
    Constraint,
    ContextField,
    Segment,
    ServerInfo,
    Strategy,
    StrategyParameter,
    StrategyType,
    Variant,
    VariantOverride,
)
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.rollout_rules import (
    rollout,
    segment_ids,
    strategy,
    strategy_type,
    unlisted_fields,
)
from flagtui.api.variant_rules import variants
from flagtui.sandbox.catalog import CONTEXT_FIELDS, STRATEGY_TYPES

CUSTOM = StrategyType(
    name="custom",
    parameters=[
        StrategyParameter(name="count", type="number"),
        StrategyParameter(name="on", type="boolean"),
        StrategyParameter(name="hosts", type="list"),
        StrategyParameter(name="label", type="string", required=True),
    ],
)
CATALOG = RolloutCatalog(
    [*(StrategyType.model_validate(t) for t in STRATEGY_TYPES), CUSTOM],
    [ContextField.model_validate(f) for f in CONTEXT_FIELDS],
    [Segment(id=1, name="beta-testers"), Segment(id=7, name="eu")],
    ServerInfo(sandbox=True, version="8.2.0"),
)
OFFERED = "flexibleRollout, default, remoteAddress, applicationHostname, custom"


def refusal(call, *args, **kwargs) -> tuple[str, str]:
    with pytest.raises(InvalidArgument) as caught:
        call(*args, **kwargs)
    return caught.value.field, caught.value.limit


# -- rollout percentage ------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "taken"), [(0, 0), (100, 100), ("0", 0), (" 100 ", 100)])
def test_a_rollout_of_0_and_of_100_is_taken(value, taken) -> None:
    assert rollout(value) == taken


@pytest.mark.parametrize("value", [-1, 101, "101", 100.5])
def test_a_rollout_just_past_either_edge_is_refused(value) -> None:
    limit = f"a whole percentage from 0 to 100, not {value!r}"
    assert refusal(rollout, value, where="parameters.rollout") == ("parameters.rollout", limit)


# -- strategy types and segments ---------------------------------------------------------------


TYPE_REFUSALS = [
    (
        "flexibleRolout",
        True,
        f"'flexibleRolout' is not a strategy type of this server; did you mean flexibleRollout?"
        f" one of {OFFERED}",
    ),
    ("zzz", True, f"'zzz' is not a strategy type of this server; one of {OFFERED}"),
    ("userWithId", True, f"userWithId is deprecated on this server; one of {OFFERED}"),
]


@pytest.mark.parametrize(("name", "adding", "limit"), TYPE_REFUSALS)
def test_a_strategy_type_is_one_the_server_offers(name, adding, limit) -> None:
    assert refusal(strategy_type, name, CATALOG, adding=adding) == ("name", limit)


def test_a_deprecated_type_is_kept_on_a_strategy_that_has_it() -> None:
    assert strategy_type("userWithId", CATALOG, adding=False).name == "userWithId"


def test_segments_are_sent_once_each_in_the_order_given() -> None:
    assert segment_ids([7, "eu", "beta-testers", 1], CATALOG) == [7, 1]
    said = "no segment 'nope' on this server (its segments: beta-testers, eu)"
    assert refusal(segment_ids, ["eu", "nope"], CATALOG) == ("segments[1]", said)
    bare = RolloutCatalog(CATALOG.strategy_types, CATALOG.context_fields, [], CATALOG.server)
    said = "no segment 3 on this server (its segments: none)"
    assert refusal(segment_ids, [3], bare) == ("segments[0]", said)


# -- a strategy as it is sent ------------------------------------------------------------------


def test_a_strategy_keeps_its_title_state_and_the_id_it_replaces() -> None:
    given = Strategy(name="default", title="VIPs", disabled=True, segments=[7])
    added = strategy(given, CATALOG, feature="f")
    assert (added.id, added.name, added.title, added.disabled) == (None, "default", "VIPs", True)
    assert added.segments == [7]
    replaced = strategy(given, CATALOG, feature="f", existing=given.model_copy(update={"id": "s"}))
    assert replaced.id == "s"


def test_variants_take_the_rollouts_stickiness_unless_they_have_their_own() -> None:
    given = Strategy(
        name="flexibleRollout",
        parameters={"rollout": "50", "stickiness": "userId", "groupId": "g"},
        variants=[Variant(name="a")],
    )
    checked = strategy(given, CATALOG, feature="f")
    assert checked.parameters == {"rollout": "50", "stickiness": "userId", "groupId": "g"}
    assert [(v.name, v.weight, v.stickiness) for v in checked.variants or []] == [
        ("a", 1000, "userId")
    ]


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        ((3, True, ["a", "b"]), ("3", "true", "a,b")),
        ((2.5, False, "a"), ("2.5", "false", "a")),
        (("-1e3", "true", []), ("-1e3", "true", "")),
    ],
)
def test_parameters_are_sent_as_the_strings_unleash_stores(given, sent) -> None:
    names = ("count", "on", "hosts")
    parameters = {**dict(zip(names, given, strict=True)), "label": "x"}
    checked = strategy(Strategy(name="custom", parameters=parameters), CATALOG, feature="f")
    assert checked.parameters == {**dict(zip(names, sent, strict=True)), "label": "x"}


NOT_A_STRING = "a string (or a number, a boolean, a list of strings)"
NO_STICKINESS = "default, random or the name of a context field"
PARAMETER_REFUSALS = [
    ({"count": "ten"}, "parameters.count", "a number, not 'ten'"),
    ({"count": "inf"}, "parameters.count", "a number, not 'inf'"),
    ({"on": "TRUE"}, "parameters.on", "true or false, not 'TRUE'"),
    ({"on": "yes"}, "parameters.on", "true or false, not 'yes'"),
    (
        {"hosts": {"a": 1}},
        "parameters.hosts",
        "a string (or a number, a boolean, a list of strings)",
    ),
    (
        {"hosts": ["a", 1]},
        "parameters.hosts",
        "a string (or a number, a boolean, a list of strings)",
    ),
    ({"label": "  "}, "parameters.label", "required by custom"),
    ({}, "parameters.label", "required by custom"),
    (
        {"nope": "x"},
        "parameters.nope",
        "not a parameter of custom; its parameters: count, on, hosts, label",
    ),
]


@pytest.mark.parametrize(("given", "field", "limit"), PARAMETER_REFUSALS)
def test_a_parameter_of_the_wrong_kind_is_refused_naming_it(given, field, limit) -> None:
    parameters = {"label": "x", **given} if "label" not in given and given else given
    checked = Strategy(name="custom", parameters=parameters)
    assert refusal(strategy, checked, CATALOG, feature="f") == (field, limit)


GRADUAL_REFUSALS = [
    ({"groupId": " "}, "parameters.groupId", "a non-empty group id"),
    (
        {"stickiness": " "},
        "parameters.stickiness",
        "default, random or the name of a context field",
    ),
    ({"rollout": "101"}, "parameters.rollout", "a whole percentage from 0 to 100, not '101'"),
    (
        {"percent": "5"},
        "parameters.percent",
        "not a parameter of flexibleRollout; its parameters: rollout, stickiness, groupId",
    ),
]


@pytest.mark.parametrize(("given", "field", "limit"), GRADUAL_REFUSALS)
def test_a_gradual_rollouts_parameters_are_refused_naming_each(given, field, limit) -> None:
    checked = Strategy(name="flexibleRollout", parameters=given)
    assert refusal(strategy, checked, CATALOG, feature="f") == (field, limit)


def test_a_type_without_declared_parameters_sends_what_it_is_given() -> None:
    checked = strategy(Strategy(name="default", parameters={"x": 1}), CATALOG, feature="f")
    assert checked.parameters == {"x": "1"}


# -- variants ----------------------------------------------------------------------------------


def fixed(name: str, weight: int) -> Variant:
    return Variant(name=name, weight=weight, weight_type="fix")


WEIGHTS = [
    ([fixed("a", 1000)], [("a", 1000, "variable")]),
    ([fixed("a", 1000), Variant(name="b")], None),  # b would get 0
    ([fixed("a", 999), Variant(name="b")], [("a", 999, "fix"), ("b", 1, "variable")]),
    ([fixed("a", 0), Variant(name="b")], [("a", 0, "fix"), ("b", 1000, "variable")]),
    ([Variant(name="a"), Variant(name="b")], [("a", 500, "variable"), ("b", 500, "variable")]),
]


@pytest.mark.parametrize(("given", "sent"), WEIGHTS)
def test_a_fixed_weight_from_0_to_1000(given, sent) -> None:
    if sent is None:
        assert refusal(variants, given, CATALOG)[0] == "variants[1].weight"
        return
    assert [(v.name, v.weight, v.weight_type) for v in variants(given, CATALOG)] == sent


WEIGHT_LIMIT = "an integer from 0 to 1000 (per mille: 500 is 50 %)"


@pytest.mark.parametrize(
    ("given", "field", "limit"),
    [
        ([fixed("a", 1001), Variant(name="b")], "variants[0].weight", WEIGHT_LIMIT),
        ([Variant(name="b"), fixed("a", -1)], "variants[1].weight", WEIGHT_LIMIT),
        ([Variant(name="a", weight_type="fixed")], "variants[0].weightType", "variable or fix"),
        (
            [fixed("a", 500), fixed("b", 501)],
            "variants.weight",
            "the weights add up to 1001, not 1000 (per mille); "
            "or leave one variant without a weight to take the rest",
        ),
        (
            [fixed("a", 500), fixed("b", 501), Variant(name="c")],
            "variants.weight",
            "the fixed weights add up to 1001, over 1000 (per mille)",
        ),
    ],
)
def test_a_weight_just_past_the_edge_is_refused_naming_it(given, field, limit) -> None:
    assert refusal(variants, given, CATALOG) == (field, limit)


@pytest.mark.parametrize(("length", "ok"), [(1, True), (100, True), (101, False), (0, False)])
def test_a_variant_name_of_exactly_the_maximum_length_is_taken(length, ok) -> None:
    given = [Variant(name="n" * length)]
    if ok:
        assert variants(given, CATALOG)[0].name == "n" * length
    else:
        assert refusal(variants, given, CATALOG) == (
            "variants[0].name",
            "a variant name of 1 to 100 characters",
        )


def test_environment_variants_keep_their_overrides_on_the_way_to_the_server() -> None:
    vip = VariantOverride(context_name="userId", values=["u-1", "u-2"])
    given = [Variant(name="a", overrides=[vip]), Variant(name="b")]
    sent = variants(given, CATALOG, environment=True)
    assert [v.overrides for v in sent] == [[vip], []]
    assert [v.overrides for v in variants(given, CATALOG)] == [None, None]  # a strategy's
    blank = [Variant(name="a", overrides=[vip, VariantOverride(context_name=" ", values=["x"])])]
    assert refusal(variants, blank, CATALOG, environment=True) == (
        "variants[0].overrides[1].contextName",
        "the name of a context field",
    )


def test_only_a_gradual_rollouts_rollout_is_a_percentage_whatever_the_server_declares() -> None:
    loose = StrategyType(
        name="flexibleRollout",
        parameters=[StrategyParameter(name=n, type="string") for n in ("rollout", "groupId")]
        + [StrategyParameter(name="stickiness", type="string")],
    )
    scaled = StrategyType(
        name="scaled", parameters=[StrategyParameter(name="rollout", type="number")]
    )
    on = RolloutCatalog([loose, scaled], CATALOG.context_fields, [], CATALOG.server)
    gradual = Strategy(name="flexibleRollout", parameters={"rollout": "150"})
    assert refusal(strategy, gradual, on, feature="f") == (
        "parameters.rollout",
        "a whole percentage from 0 to 100, not '150'",
    )
    other = strategy(Strategy(name="scaled", parameters={"rollout": 150}), on, feature="f")
    assert other.parameters == {"rollout": "150"}


def test_variants_of_a_strategy_without_stickiness_hash_on_default() -> None:
    checked = strategy(Strategy(name="default", variants=[Variant(name="a")]), CATALOG, feature="f")
    assert [v.stickiness for v in checked.variants or []] == ["default"]


def test_each_unlisted_field_a_strategy_names_is_warned_of_once() -> None:
    gradual = Strategy(
        name="flexibleRollout",
        parameters={"stickiness": "tenant"},
        constraints=[Constraint(context_name="remoteAddress", operator="IN", values=["1"])],
        variants=[Variant(name="a"), Variant(name="b")],
    )
    checked = strategy(gradual, CATALOG, feature="f")
    assert unlisted_fields(checked, CATALOG) == [
        ("constraints[0].contextName", f"'remoteAddress' {UNLISTED}"),
        ("parameters.stickiness", f"'tenant' {UNLISTED} (did you mean tenantId?)"),
    ]
    plain = gradual.model_copy(
        update={
            "name": "default",
            "parameters": {},
            "variants": [Variant(name="a", stickiness="tenant")],
        }
    )
    assert unlisted_fields(strategy(plain, CATALOG, feature="f"), CATALOG) == [
        ("constraints[0].contextName", f"'remoteAddress' {UNLISTED}"),
        ("variants[0].stickiness", f"'tenant' {UNLISTED} (did you mean tenantId?)"),
    ]
