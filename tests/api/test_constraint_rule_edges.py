"""A constraint's checks at their edges, as tables (issue 43, item 8): an accepted value at each
edge, a refused one just past it, each refusal naming its field and saying its limit in full."""

from __future__ import annotations

import pytest

from flagtui.api import InvalidArgument
from flagtui.api.constraint_rules import (
    constraint,
    constraints,
    is_context_time,
    is_date,
    regex_error,
)
from flagtui.api.models import Constraint, ContextField, ServerInfo
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.sandbox.catalog import CONTEXT_FIELDS

STRINGS = "IN, NOT_IN, STR_CONTAINS, STR_STARTS_WITH, STR_ENDS_WITH"
NUMBERS = "NUM_EQ, NUM_GT, NUM_GTE, NUM_LT, NUM_LTE"
SEMVERS = "SEMVER_EQ, SEMVER_GT, SEMVER_LT"
ON_8 = f"{STRINGS}, {NUMBERS}, {SEMVERS}, SEMVER_GTE, SEMVER_LTE, REGEX"


def catalog(version: str | None = None, fields: list[str] | None = None) -> RolloutCatalog:
    server = ServerInfo(version=version) if version else ServerInfo(sandbox=True, version="8.2.0")
    listed = (
        [ContextField(name=f) for f in fields]
        if fields is not None
        else [ContextField.model_validate(f) for f in CONTEXT_FIELDS]
    )
    return RolloutCatalog([], listed, [], server)


def one(field: str, operator: str, value: str, **more) -> Constraint:
    return Constraint(context_name=field, operator=operator, value=value, **more)


def many(field: str, operator: str, *values: str, **more) -> Constraint:
    return Constraint(context_name=field, operator=operator, values=list(values), **more)


def refusal(given: Constraint, on: RolloutCatalog | None = None) -> tuple[str, str]:
    with pytest.raises(InvalidArgument) as caught:
        constraint(given, on or catalog())
    return caught.value.field, caught.value.limit


ACCEPTED = [
    many("userId", "IN", "x" * 100),
    many("userId", "IN", "x"),
    one("tenantSize", "NUM_GT", "0"),
    one("tenantSize", "NUM_GT", "1e308"),
    one("tenantSize", "NUM_LT", ".5"),
    one("tenantSize", "NUM_LT", "+1."),
    one("appVersion", "SEMVER_EQ", "0.0.0"),
    one("currentTime", "DATE_AFTER", "2028-02-29T23:59:59Z"),
    one("currentTime", "DATE_BEFORE", "2026-01-31T00:00:00.000-11:00"),
    many("plan", "IN", "free", "enterprise"),
]


@pytest.mark.parametrize("given", ACCEPTED)
def test_a_value_at_the_edge_is_taken_as_given(given) -> None:
    sent = constraint(given, catalog())
    assert (sent.value, sent.values) == (given.value, given.values)


NUMBER = "is not a number, e.g. 42 or 0.5"
SEMVER = "is not a semantic version, e.g. 1.2.3 or 2.0.0-beta.1"
DATE = "is not a date and time with its zone, e.g. 2026-01-31T09:00:00Z or …:00.000+02:00"
NOT_LEGAL = "'gold' is not a legal value of plan: free, pro, premium, enterprise"
NOT_INVERTED = "a REGEX constraint cannot be inverted"
ONE_VALUE = "NUM_EQ compares exactly one value"


def not_a_date(text: str) -> tuple[Constraint, str, str]:
    return one("currentTime", "DATE_AFTER", text), "value", f"{text!r} {DATE}"


REFUSED = [
    (many("userId", "IN", "x" * 101), "values[0]", "1 to 100 characters"),
    (many("userId", "IN", "a", ""), "values[1]", "1 to 100 characters"),
    (many("userId", "IN"), "values", "IN needs at least one value"),
    (one("tenantSize", "NUM_GT", "1e309"), "value", f"'1e309' {NUMBER}"),
    (one("tenantSize", "NUM_GT", "1,5"), "value", f"'1,5' {NUMBER}"),
    (one("tenantSize", "NUM_GT", ""), "value", "NUM_GT compares exactly one value"),
    (many("tenantSize", "NUM_GT", "1", "2"), "value", "NUM_GT compares exactly one value"),
    (one("appVersion", "SEMVER_EQ", "01.0.0"), "value", f"'01.0.0' {SEMVER}"),
    (one("appVersion", "SEMVER_EQ", "1.0"), "value", f"'1.0' {SEMVER}"),
    not_a_date("2026-02-29T00:00:00Z"),
    not_a_date("2026-01-31T24:00:00Z"),
    not_a_date("2026-01-31T09:00:00.00Z"),
    (many("plan", "IN", "free", "gold"), "values[1]", NOT_LEGAL),
    (one("email", "REGEX", ".*", inverted=True), "inverted", NOT_INVERTED),
    (many(" ", "IN", "x"), "contextName", "the name of a context field"),
    (one("userId", "DATE_AFTER", "2026-01-31T09:00:00Z"), "operator", f"userId takes {ON_8}"),
    (many("currentTime", "IN", "x"), "operator", "currentTime takes DATE_AFTER, DATE_BEFORE"),
    (many("tenant", "DATE_AFTER", "x"), "operator", f"tenant takes {ON_8}"),  # unlisted
    (
        many("userId", "in", "x"),
        "operator",
        f"'in' is no operator; did you mean IN? {STRINGS}, {NUMBERS}, DATE_AFTER, DATE_BEFORE, "
        f"{SEMVERS}, SEMVER_GTE, SEMVER_LTE, REGEX",
    ),
    (
        many("userId", "ZZZ", "x"),
        "operator",
        f"'ZZZ' is no operator; {STRINGS}, {NUMBERS}, DATE_AFTER, DATE_BEFORE, "
        f"{SEMVERS}, SEMVER_GTE, SEMVER_LTE, REGEX",
    ),
    (one("plan", "NUM_EQ", "1"), "value", NOT_LEGAL.replace("'gold'", "'1'")),  # one value
    (Constraint(context_name="tenantSize", operator="NUM_EQ"), "value", ONE_VALUE),
    (Constraint(context_name="tenantSize", operator="NUM_EQ", values=[]), "value", ONE_VALUE),
    (
        Constraint(context_name="userId", operator="IN", value="a", values=["b"]),
        "value",
        "give value or values, not both (IN compares values; value is unread)",
    ),
    (
        Constraint(context_name="userId", operator="NUM_EQ", value="1", values=["2"]),
        "values",
        "give value or values, not both (NUM_EQ compares value; values is unread)",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("given", "field", "limit"), REFUSED)
def test_a_value_just_past_the_edge_is_refused_naming_its_field(given, field, limit) -> None:
    assert refusal(given) == (f"constraint.{field}", limit)


def test_a_regex_the_engine_cannot_evaluate_is_refused_with_the_engines_reason() -> None:
    assert refusal(one("email", "REGEX", "(?=x)")) == (
        "constraint.value",
        "'(?=x)' is not a regular expression the SDKs can evaluate (Rust regex syntax): "
        "look-around, including look-ahead and look-behind, is not supported",
    )


@pytest.mark.parametrize(
    ("pattern", "error"),
    [
        ("(a)", None),
        ("(", "unclosed group"),
        (r"a\Z", "unrecognized escape sequence"),
        (r"(a)\1", "backreferences are not supported"),
    ],
)
def test_a_regex_error_is_the_last_line_of_the_engines_answer(pattern, error) -> None:
    assert regex_error(pattern) == error


@pytest.mark.parametrize(
    ("given", "version", "limit"),
    [
        # An operator the field does not take, on a server whose version decides.
        (one("userId", "DATE_AFTER", "2026-01-31T09:00:00Z"), "8.2.0", f"userId takes {ON_8}"),
        # On a field the server does not list, too.
        (one("tenant", "SEMVER_GTE", "1.0.0"), "7.5.1", "SEMVER_GTE needs Unleash 8.0 (OSS 7.5.1)"),
        (one("tenant", "SEMVER_GT", "1.0.0"), "7.5.1", None),
    ],
)
def test_the_operators_on_a_versioned_server(given, version, limit) -> None:
    if limit is None:
        assert constraint(given, catalog(version)).operator == given.operator
    else:
        assert refusal(given, catalog(version)) == ("constraint.operator", limit)


def test_each_constraint_of_a_list_is_refused_at_its_index() -> None:
    given = [many("userId", "IN", "a"), many(" ", "IN", "x")]
    with pytest.raises(InvalidArgument) as caught:
        constraints(given, catalog())
    assert (caught.value.field, caught.value.limit) == (
        "constraints[1].contextName",
        "the name of a context field",
    )
    assert [c.values for c in constraints(given[:1], catalog())] == [["a"]]


@pytest.mark.parametrize(
    ("version", "limit"),
    [
        ("6.10.1", "REGEX needs Unleash 7.0 (OSS 6.10.1)"),
        ("7.5.1", "SEMVER_GTE needs Unleash 8.0 (OSS 7.5.1)"),
    ],
)
def test_an_operator_newer_than_the_server_says_the_version_it_needs(version, limit) -> None:
    operator = limit.split()[0]
    value = "1.0.0" if operator.startswith("SEMVER") else "x"
    assert refusal(one("appVersion", operator, value), catalog(version)) == (
        "constraint.operator",
        limit,
    )


@pytest.mark.parametrize(
    ("listed", "shown"),
    [
        (20, ", ".join(f"f{i}" for i in range(20))),
        (21, ", ".join(f"f{i}" for i in range(20)) + ", …"),
    ],
)
def test_an_unlisted_field_on_6_names_at_most_20_of_the_servers(listed, shown) -> None:
    on = catalog("6.10.1", [f"f{i}" for i in range(listed)])
    said = (
        "'tenant' is not a context field of OSS 6.10.1, which refuses a constraint on one"
        f" (Unleash 7.0 takes it): its fields: {shown}"
    )
    assert refusal(many("tenant", "IN", "x"), on) == ("constraint.contextName", said)


def test_flags_are_sent_only_when_set() -> None:
    plain = constraint(many("userId", "IN", "a", inverted=False, case_insensitive=False), catalog())
    assert plain.model_dump(exclude_none=True) == {
        "context_name": "userId",
        "operator": "IN",
        "values": ["a"],
    }
    both = constraint(many("userId", "IN", "a", inverted=True, case_insensitive=True), catalog())
    assert (both.inverted, both.case_insensitive) == (True, True)
    value = constraint(one("tenantSize", "NUM_GT", "1", inverted=True), catalog())
    assert (value.value, value.values, value.inverted) == ("1", None, True)


@pytest.mark.parametrize(
    ("text", "date", "context_time"),
    [
        ("2026-01-31T09:00:00Z", True, True),
        ("2026-01-31T09:00:00.000+02:00", True, True),
        ("2026-01-31 09:00:00.5+0100", False, True),
        ("2026-01-31t09:00:00z", False, True),
        ("2026-02-30T09:00:00Z", False, False),
        ("2026-01-31", False, False),
    ],
)
def test_a_constraints_date_and_a_contexts_time(text, date, context_time) -> None:
    assert (is_date(text), is_context_time(text)) == (date, context_time)
