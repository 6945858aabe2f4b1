"""The variant checks at their edges, as tables (issue 43, item 8): the weights Unleash would
store, a payload's type and value, one stickiness, and the context fields the server does not
list; each refusal names its field and says its limit in full."""

from __future__ import annotations

import pytest

from flagtui.api import InvalidArgument
from flagtui.api.constraint_rules import UNLISTED
from flagtui.api.models import ContextField, ServerInfo, StrategyType, Variant, VariantOverride
from flagtui.api.models import VariantPayload as Payload
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.variant_rules import stickiness, unlisted_fields, variants
from flagtui.sandbox.catalog import CONTEXT_FIELDS, STRATEGY_TYPES

CATALOG = RolloutCatalog(
    [StrategyType.model_validate(t) for t in STRATEGY_TYPES],
    [ContextField.model_validate(f) for f in CONTEXT_FIELDS],
    [],
    ServerInfo(sandbox=True, version="8.2.0"),
)
DOUBLE_MAX = int(1.7976931348623157e308)  # the largest double, as an integer
DOUBLE_MAX_DIGITS = str(DOUBLE_MAX)


def refusal(given: list[Variant], **kwargs) -> tuple[str, str]:
    with pytest.raises(InvalidArgument) as caught:
        variants(given, CATALOG, **kwargs)
    return caught.value.field, caught.value.limit


def fixed(name: str, weight: int) -> Variant:
    return Variant(name=name, weight=weight, weight_type="fix")


def sent(given: list[Variant]) -> list[tuple[str, int | None, str | None]]:
    return [(v.name, v.weight, v.weight_type) for v in variants(given, CATALOG)]


# -- weights -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "weights"),
    [
        # What the fixed ones leave is shared evenly, the first variable ones taking the rest.
        (
            [fixed("a", 2), Variant(name="b"), Variant(name="c"), Variant(name="d")],
            [
                ("a", 2, "fix"),
                ("b", 333, "variable"),
                ("c", 333, "variable"),
                ("d", 332, "variable"),
            ],
        ),
        (
            [Variant(name=n) for n in "abcdef"],
            [(n, w, "variable") for n, w in zip("abcdef", [167] * 4 + [166] * 2, strict=True)],
        ),
        # A fixed variant last, beside a variable one, stays fixed (only an all-fixed list's
        # last one is sent as variable).
        ([Variant(name="a"), fixed("b", 300)], [("a", 700, "variable"), ("b", 300, "fix")]),
        ([fixed("a", 400), fixed("b", 600)], [("a", 400, "fix"), ("b", 600, "variable")]),
    ],
)
def test_the_weights_sent_are_those_unleash_stores(given, weights) -> None:
    assert sent(given) == weights


def test_a_variable_variant_the_fixed_ones_leave_nothing_for_is_refused_naming_it() -> None:
    given = [fixed("a", 999), Variant(name="b"), Variant(name="c")]
    assert refusal(given) == (
        "variants[2].weight",
        "the fixed weights leave 1 per mille for 2 variants without a weight: this one would"
        " get 0; lower a fixed weight",
    )


# -- names and stickiness ----------------------------------------------------------------------


def test_a_name_given_twice_is_refused_at_its_second_variant() -> None:
    given = [Variant(name="a"), Variant(name="b"), Variant(name="a")]
    assert refusal(given) == ("variants[2].name", "'a' is given twice")


def test_a_variant_with_another_stickiness_is_refused_naming_it() -> None:
    given = [
        Variant(name="a", stickiness="userId"),
        Variant(name="b"),
        Variant(name="c", stickiness="random"),
    ]
    assert refusal(given) == (
        "variants[2].stickiness",
        "every variant has one stickiness: 'userId' (the first variant's)",
    )


def test_variants_without_stickiness_hash_on_default() -> None:
    assert [v.stickiness for v in variants([Variant(name="a"), Variant(name="b")], CATALOG)] == [
        "default",
        "default",
    ]


@pytest.mark.parametrize(
    ("value", "ok"), [("default", True), ("x", True), (" ", False), ("", False)]
)
def test_a_stickiness_is_any_name_but_an_empty_one(value: str, ok: bool) -> None:
    if ok:
        assert stickiness(value) == value
        return
    with pytest.raises(InvalidArgument) as caught:
        stickiness(value)
    assert (caught.value.field, caught.value.limit) == (
        "stickiness",
        "default, random or the name of a context field",
    )


# -- payloads ----------------------------------------------------------------------------------


def with_payload(kind: str, value: str) -> list[Variant]:
    return [Variant(name="a", payload=Payload(type=kind, value=value))]


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("number", DOUBLE_MAX_DIGITS),  # the largest double's digits: the edge
        ("number", "-" + DOUBLE_MAX_DIGITS),
        ("number", "0"),
        ("number", "-0.5"),
        ("json", f"[{DOUBLE_MAX_DIGITS}]"),
        ("json", '"text"'),
        ("json", "true"),
        ("string", "not json {"),
        ("csv", "a,b"),
    ],
)
def test_a_payload_of_its_type_is_sent_as_given(kind: str, value: str) -> None:
    assert variants(with_payload(kind, value), CATALOG)[0].payload == Payload(
        type=kind, value=value
    )


@pytest.mark.parametrize(
    ("kind", "value", "field", "limit"),
    [
        (
            "number",
            str(DOUBLE_MAX + 1),  # just past the largest double
            "variants[0].payload.value",
            "number: a number too large for the SDKs (over about 1.8e308)",
        ),
        ("number", "true", "variants[0].payload.value", "not a number"),  # JSON, not a number
        ("number", '"1"', "variants[0].payload.value", "not a number"),
        ("number", "[1]", "variants[0].payload.value", "not a number"),
        ("number", "{}", "variants[0].payload.value", "not a number"),
        ("number", "1x", "variants[0].payload.value", "not valid number"),
        ("json", "{", "variants[0].payload.value", "not valid json"),
        ("yaml", "a: 1", "variants[0].payload.type", "one of json, csv, string, number"),
        ("Number", "1", "variants[0].payload.type", "one of json, csv, string, number"),
    ],
)
def test_a_payload_not_of_its_type_is_refused_naming_the_part(kind, value, field, limit) -> None:
    assert refusal(with_payload(kind, value)) == (field, limit)


# -- context fields the server does not list ---------------------------------------------------


@pytest.mark.parametrize("sticky", ["default", "random", "userId", None])
def test_built_in_and_listed_fields_warn_of_nothing(sticky: str | None) -> None:
    on_user = VariantOverride(context_name="userId", values=["u-1"])
    given = [Variant(name="a", stickiness=sticky, overrides=[on_user]), Variant(name="b")]
    checked = variants(given, CATALOG, environment=True)
    assert unlisted_fields(checked, CATALOG) == []


def test_no_variants_warn_of_nothing() -> None:
    assert unlisted_fields([], CATALOG) == []


def test_each_unlisted_field_is_warned_of_where_it_is_named() -> None:
    on_device = VariantOverride(context_name="deviceId", values=["d-1"])
    on_user = VariantOverride(context_name="userId", values=["u-1"])
    given = [
        Variant(name="a", stickiness="tenant", overrides=[on_user]),
        Variant(name="b", overrides=[on_user, on_device]),
    ]
    checked = variants(given, CATALOG, environment=True, where="env.variants")
    assert unlisted_fields(checked, CATALOG, where="env.variants") == [
        ("env.variants[0].stickiness", f"'tenant' {UNLISTED} (did you mean tenantId?)"),
        ("env.variants[1].overrides[1].contextName", f"'deviceId' {UNLISTED}"),
    ]
