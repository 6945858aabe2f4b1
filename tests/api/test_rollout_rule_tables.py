"""The rollout checks as tables (issue 43, item 6; issue 44, item 3): what the server or the SDKs
would refuse is refused, naming the field; what they accept is accepted, at each edge. Regular
expressions are judged against the SDKs' own engine (yggdrasil, which the official Python SDK
embeds): each row's input matches the pattern wherever the pattern compiles, so the engine's
answer for it is its verdict on the pattern."""

from __future__ import annotations

import json

import pytest
from yggdrasil_engine.engine import UnleashEngine

from flagtui.api import InvalidArgument
from flagtui.api.constraint_rules import constraint
from flagtui.api.models import (
    Constraint,
    ContextField,
    ServerInfo,
    Strategy,
    StrategyType,
    Variant,
    VariantOverride,
    VariantPayload,
)
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.rollout_rules import strategy, unlisted_fields
from flagtui.api.variant_rules import unlisted_fields as variants_unlisted
from flagtui.api.variant_rules import variants
from flagtui.cli.rollout_input import constraint as constraint_option
from flagtui.sandbox.catalog import CONTEXT_FIELDS, STRATEGY_TYPES

CATALOG = RolloutCatalog(
    [StrategyType.model_validate(t) for t in STRATEGY_TYPES],
    [ContextField.model_validate(f) for f in CONTEXT_FIELDS],
    [],
    ServerInfo(sandbox=True, version="8.2.0"),
)


def refused(field: str, call, *args, **kwargs) -> str:
    with pytest.raises(InvalidArgument) as caught:
        call(*args, **kwargs)
    assert caught.value.field == field
    return caught.value.limit


# -- regular expressions, by the SDKs' engine --------------------------------------------------

# (pattern, a string it matches wherever it compiles, whether the SDKs' engine evaluates it).
# The refused ones are Python's `re` syntax (lookaround, backreferences, \Z, octal, comments,
# atomic groups), or not regular expressions at all.
REGEX_TABLE = [
    ("^(?i)abc$", "ABC", True),  # a flag mid-pattern: the issue's repro, refused before
    ("(?s)a.b", "a\nb", True),
    (r"\pL+", "é", True),
    (r"a\z", "a", True),
    (r"\p{Greek}", "α", True),
    ("(?<n>a)", "a", True),
    ("(?P<n>a)", "a", True),
    ("(?U)a+", "a", True),
    ("(?-i)a", "a", True),
    (r"[\d--5]", "1", True),
    (r"\x{10FFFF}", "\U0010ffff", True),
    (r"\b{start}a", "a", True),
    ("a{1000}", "a" * 1000, True),
    ("a{2,2}", "aa", True),  # a repetition's range at its edge: start equal to end
    ("(?=a)", "a", False),
    ("(?<=a)b", "ab", False),
    (r"(a)\1", "aa", False),
    (r"\Z", "a", False),
    (r"\101", "A", False),
    ("(?#c)a", "a", False),
    ("(?>a)", "a", False),
    (r"\Qa\E", "a", False),
    ("a{,3}", "a", False),
    ("a{2,1}", "aa", False),  # just past the edge: start over end
    ("(", "(", False),
    ("[", "[", False),
]


def engine_matches(pattern: str, value: str) -> bool:
    """What the SDKs' engine answers for a flag whose only constraint is `userId REGEX pattern`."""
    engine = UnleashEngine()
    rule = {"contextName": "userId", "operator": "REGEX", "value": pattern}
    feature = {"name": "f", "enabled": True, "strategies": [
        {"name": "default", "parameters": {}, "constraints": [rule]}]}  # fmt: skip
    engine.take_state(json.dumps({"version": 2, "features": [feature]}))
    return engine.is_enabled("f", {"userId": value}).is_enabled


@pytest.mark.parametrize(("pattern", "matched", "evaluated"), REGEX_TABLE)
def test_a_regex_is_refused_exactly_when_the_sdks_engine_cannot_evaluate_it(
    pattern: str, matched: str, evaluated: bool
) -> None:
    """Fails on the code before for the first rows: Python's `re` refused `(?i)` mid-pattern,
    `\\pL`, `\\z`, `\\p{Greek}`, `(?<n>…)`, and accepted `\\Z`, octal, comments."""
    assert engine_matches(pattern, matched) is evaluated, "the table's own premise"
    given = Constraint(context_name="email", operator="REGEX", value=pattern)
    if evaluated:
        assert constraint(given, CATALOG).value == pattern
    else:
        said = refused("constraint.value", constraint, given, CATALOG)
        assert said.startswith(f"{pattern!r} is not a regular expression the SDKs can evaluate")


# -- dates, by the SDKs' engine ---------------------------------------------------------------

# (a DATE_AFTER value, whether the SDKs' engine reads it): each is before the context's time, so
# the engine answers true exactly when it reads the value. Real 8.2.0 stores them all.
DATE_TABLE = [
    ("2020-01-01T00:00:00Z", True),
    ("2020-01-01T00:00:00.000Z", True),  # milliseconds: the one fraction it reads
    ("2020-01-01T00:00:00+01:00", True),
    ("2020-01-01T00:00:00-00:00", True),
    ("2020-01-01T00:00:00.5Z", False),
    ("2020-01-01T00:00:00.123456Z", False),
    ("2020-01-01T00:00Z", False),  # no seconds
    ("2020-01-01 00:00:00Z", False),
    ("2020-01-01t00:00:00z", False),
    ("2020-01-01T00:00:00+0100", False),
    ("2020-01-01T00:00:00", False),  # no zone
    ("2020-01-01", False),
    ("2020-02-30T00:00:00Z", False),
]


def engine_reads_date(value: str) -> bool:
    engine = UnleashEngine()
    rule = {"contextName": "currentTime", "operator": "DATE_AFTER", "value": value}
    feature = {"name": "f", "enabled": True, "strategies": [
        {"name": "default", "parameters": {}, "constraints": [rule]}]}  # fmt: skip
    engine.take_state(json.dumps({"version": 2, "features": [feature]}))
    return engine.is_enabled("f", {"currentTime": "2026-01-31T09:00:00Z"}).is_enabled


@pytest.mark.parametrize(("value", "read"), DATE_TABLE)
def test_a_constraint_date_is_refused_exactly_when_the_sdks_engine_cannot_read_it(
    value: str, read: bool
) -> None:
    """Before, `fromisoformat` passed `…T00:00Z`, `….5Z` and `+0100`: never matched by an SDK."""
    assert engine_reads_date(value) is read, "the table's own premise"
    given = Constraint(context_name="currentTime", operator="DATE_AFTER", value=value)
    if read:
        assert constraint(given, CATALOG).value == value
    else:
        assert "with its zone" in refused("constraint.value", constraint, given, CATALOG)


# -- constraints: value and values, booleans ---------------------------------------------------


@pytest.mark.parametrize(
    ("given", "field"),
    [
        (Constraint(context_name="userId", operator="IN", values=["a"], value="b"), "value"),
        (Constraint(context_name="tenantSize", operator="NUM_GT", value="1", values=["2"]),
         "values"),
        (Constraint(context_name="email", operator="REGEX", value="a", values=["a"]), "values"),
    ],
)  # fmt: skip
def test_value_and_values_both_given_is_refused_naming_the_unread_one(given, field) -> None:
    said = refused(f"constraint.{field}", constraint, given, CATALOG)
    assert "give value or values, not both" in said


@pytest.mark.parametrize(
    "given",
    [
        Constraint(context_name="userId", operator="IN", values=["a"], value=""),
        Constraint(context_name="userId", operator="IN", values=["a"]),
        Constraint(context_name="tenantSize", operator="NUM_GT", value="1", values=[]),
        Constraint(context_name="tenantSize", operator="NUM_GT", values=["1"]),  # read as value
    ],
)
def test_one_of_value_and_values_is_accepted(given) -> None:
    checked = constraint(given, CATALOG)
    assert (checked.value is None) != (checked.values is None)


@pytest.mark.parametrize("flag", ["caseInsensitive", "inverted"])
@pytest.mark.parametrize("value", ['"yes"', '"true"', "1", "0", '"false"', "null"])
def test_a_constraints_flag_is_a_boolean_or_refused_naming_it(flag: str, value: str) -> None:
    """Before, `"yes"` and `1` were read as true, `"false"` and `0` as false."""
    text = f'{{"contextName": "userId", "operator": "IN", "values": ["a"], "{flag}": {value}}}'
    if value == "null":
        attribute = {"caseInsensitive": "case_insensitive", "inverted": "inverted"}[flag]
        assert getattr(constraint_option(text), attribute) is None
        return
    said = refused("--constraint", constraint_option, text)
    assert said.startswith(f"{flag}: Input should be a valid boolean (given ")


@pytest.mark.parametrize("value", ["true", "false"])
def test_a_constraints_boolean_flag_is_read(value: str) -> None:
    text = f'{{"contextName": "userId", "operator": "IN", "values": ["a"], "inverted": {value}}}'
    assert constraint_option(text).inverted is (value == "true")


# -- variant payloads --------------------------------------------------------------------------


def one_with(kind: str, value: str) -> list[Variant]:
    return [Variant(name="a", payload=VariantPayload(type=kind, value=value))]


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("number", "1.7976931348623157e308"),  # the largest double: the edge
        ("number", "-1.7976931348623157e308"),
        ("number", "1" + "0" * 308),  # digits under it
        ("number", "5e-324"),
        ("json", '{"a": 1.7976931348623157e308, "b": [1, null, "NaN"]}'),
    ],
)
def test_finite_payloads_are_accepted(kind: str, value: str) -> None:
    assert variants(one_with(kind, value), CATALOG)[0].payload.value == value


@pytest.mark.parametrize(
    ("kind", "value", "said"),
    [
        ("number", "1e309", "too large for the SDKs"),  # just past the largest double
        ("number", "-1e309", "too large for the SDKs"),
        ("number", "1" + "0" * 309, "too large for the SDKs"),
        ("number", "NaN", "not valid number"),
        ("number", "Infinity", "not valid number"),
        ("number", "-Infinity", "not valid number"),
        ("json", '{"a": NaN}', "not valid json"),
        ("json", "[1, Infinity]", "not valid json"),
        ("json", '{"a": {"b": [1e309]}}', "too large for the SDKs"),
    ],
)
def test_payloads_the_sdks_would_misread_are_refused(kind: str, value: str, said: str) -> None:
    """Before, Python's JSON read NaN and Infinity, and 1e309 as infinity: all were sent."""
    assert said in refused("variants[0].payload.value", variants, one_with(kind, value), CATALOG)


# -- weights: a zero nobody typed --------------------------------------------------------------


def v(name: str, weight: int | None = None) -> Variant:
    return Variant(name=name, weight=weight, weight_type="variable" if weight is None else "fix")


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ([v("a", 1000), v("b")], "variants[1].weight"),
        ([v("a", 999), v("b"), v("c")], "variants[2].weight"),
        ([v("a", 500), v("b", 500), v("c")], "variants[2].weight"),
    ],
)
def test_a_variable_variant_left_weight_0_is_refused(given, field) -> None:
    """Before, sent with weight 0: a variant no user ever gets, which nobody typed."""
    said = refused(field, variants, given, CATALOG)
    assert "would get 0" in said


@pytest.mark.parametrize(
    ("given", "weights"),
    [
        ([v("a", 998), v("b"), v("c")], [998, 1, 1]),  # the edge: one each
        ([v("a", 999), v("b")], [999, 1]),
        ([v("a", 0), v("b")], [0, 1000]),  # a zero typed is the admin's
        ([v("a", 1000)], [1000]),
    ],
)
def test_weights_at_the_edge_are_accepted(given, weights) -> None:
    assert [x.weight for x in variants(given, CATALOG)] == weights


@pytest.mark.parametrize(("length", "ok"), [(1, True), (100, True), (101, False), (0, False)])
def test_a_variant_name_is_1_to_100_characters(length: int, ok: bool) -> None:
    given = [v("n" * length)]
    if ok:
        assert variants(given, CATALOG)[0].name == "n" * length
    else:
        refused("variants[0].name", variants, given, CATALOG)


# -- context fields the server does not list ---------------------------------------------------


def test_stickiness_on_an_unlisted_field_is_accepted_with_a_warning() -> None:
    """Real Unleash 8.2.0 stores a gradual rollout sticky on a field it does not list."""
    given = Strategy(name="flexibleRollout", parameters={"stickiness": "deviceId"})
    checked = strategy(given, CATALOG, feature="f")
    assert checked.parameters["stickiness"] == "deviceId"
    assert unlisted_fields(checked, CATALOG) == [
        ("parameters.stickiness", "'deviceId' is not a context field of this server: SDKs must"
         " send it")]  # fmt: skip


@pytest.mark.parametrize("sticky", ["default", "random", "userId", "tenantId"])
def test_listed_and_built_in_stickiness_warns_of_nothing(sticky: str) -> None:
    given = Strategy(name="flexibleRollout", parameters={"stickiness": sticky})
    assert unlisted_fields(strategy(given, CATALOG, feature="f"), CATALOG) == []


def test_remote_address_and_custom_fields_are_constrained_with_a_warning_each() -> None:
    given = Strategy(
        name="default",
        constraints=[
            Constraint(context_name="remoteAddress", operator="IN", values=["10.0.0.1"]),
            Constraint(context_name="userId", operator="IN", values=["u-1"]),
            Constraint(context_name="tenantid", operator="IN", values=["t"]),
        ],
    )
    warned = dict(unlisted_fields(strategy(given, CATALOG, feature="f"), CATALOG))
    assert list(warned) == ["constraints[0].contextName", "constraints[2].contextName"]
    assert warned["constraints[2].contextName"].endswith("(did you mean tenantId?)")


def test_environment_variants_overrides_and_stickiness_on_unlisted_fields_warn() -> None:
    override = VariantOverride(context_name="deviceId", values=["d-1"])
    given = [Variant(name="a", stickiness="deviceId", overrides=[override])]
    checked = variants(given, CATALOG, environment=True)
    assert checked[0].overrides == [override]
    assert [f for f, _ in variants_unlisted(checked, CATALOG)] == [
        "variants[0].stickiness",
        "variants[0].overrides[0].contextName",
    ]
    blank = [Variant(name="a", overrides=[VariantOverride(context_name=" ", values=["x"])])]
    refused("variants[0].overrides[0].contextName", variants, blank, CATALOG, environment=True)


@pytest.mark.parametrize(
    ("version", "taken"), [("6.10.1", False), ("7.0.0", True), ("7.5.1", True)]
)
def test_a_constraint_on_an_unlisted_field_follows_the_servers_version(version, taken) -> None:
    """Real 6.10.1 answers such a constraint 404 ("Could not find Context field"); 7.5.1 and
    8.2.0 store it."""
    on = RolloutCatalog(
        CATALOG.strategy_types, CATALOG.context_fields, [], ServerInfo(version=version)
    )
    given = Constraint(context_name="remoteAddress", operator="IN", values=["10.0.0.1"])
    if taken:
        assert constraint(given, on).context_name == "remoteAddress"
    else:
        said = refused("constraint.contextName", constraint, given, on)
        assert "which refuses a constraint on one (Unleash 7.0 takes it)" in said
