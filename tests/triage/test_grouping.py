"""Failures group by integration and error text, whatever ids, numbers or URLs the text holds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from flagtui.api.models import IntegrationEvent
from flagtui.triage.grouping import error_key, group_failures
from flagtui.triage.records import Delivery, Failure, IntegrationRef

HOOK = IntegrationRef(2, "webhook", "Deploy alerts")
SLACK = IntegrationRef(3, "slack", None, deleted=True)
T0 = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)


def failure(ref: IntegrationRef, text: str, minutes: int) -> Failure:
    delivery = IntegrationEvent(
        id=str(minutes), integration_id=ref.id, created_at=T0 + timedelta(minutes=minutes),
        state="failed", state_details=text,
    )  # fmt: skip
    return Failure(ref, Delivery.of(delivery), "live")


def test_variable_parts_are_normalised() -> None:
    a = error_key("POST https://hooks.example.com/a/123 failed: status code: 502 after 30.5 s")
    b = error_key("POST https://hooks.example.com/b/9 failed: status code: 503 after 2 s")
    assert a == b == "POST <url> failed: status code: <n> after <n> s"
    assert error_key("id 3f2a9c1e-0b7d-4d7e-9a53-1f6c0e2b7a11 at 10.0.0.7:8080") == (
        "id <id> at <address>"
    )
    assert error_key(None) == ""


def test_groups_count_and_span_per_integration() -> None:
    failures = [
        failure(HOOK, "status code: 500 (request 17)", 1),
        failure(HOOK, "status code: 502 (request 18)", 9),
        failure(SLACK, "status code: 500 (request 17)", 5),
        failure(HOOK, "getaddrinfo ENOTFOUND hooks.example.com", 4),
    ]
    groups = group_failures(failures)
    assert [(g.integration.id, g.error_key, g.count) for g in groups] == [
        (2, "status code: <n> (request <n>)", 2),
        (3, "status code: <n> (request <n>)", 1),
        (2, "getaddrinfo ENOTFOUND hooks.example.com", 1),
    ]
    assert groups[0].first_seen == T0 + timedelta(minutes=1)
    assert groups[0].last_seen == T0 + timedelta(minutes=9)


def test_integrations_are_named_by_description_and_provider() -> None:
    assert HOOK.label == "Deploy alerts (webhook)"
    assert SLACK.label == "slack #3 [deleted]"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("  refused \t by\n  the   host  ", "refused by the host"),
        ("x" * 200, "x" * 200),  # the longest key kept whole
        ("x" * 201, "x" * 200),  # one past it: cut there
        ("a1b 7 c", "a<n>b <n> c"),
        ("deadbeef1 deadbeef", "<id> deadbeef"),  # hex of 8 or more with a digit is an id
    ],
)
def test_an_error_key_is_the_text_in_one_line_of_at_most_200_characters(text, key) -> None:
    assert error_key(text) == key


def test_a_group_shows_its_first_failures_text_and_a_failure_without_text_groups_alone() -> None:
    first = failure(HOOK, "status code: 500 (request 17)", 1)
    silent = Failure(HOOK, Delivery.of(IntegrationEvent(
        id="s", integration_id=HOOK.id, created_at=T0, state="failed", state_details=None,
    )), "live")  # fmt: skip
    groups = group_failures([first, failure(HOOK, "status code: 502 (request 18)", 3), silent])
    assert [(g.error_key, g.example, g.count) for g in groups] == [
        ("status code: <n> (request <n>)", "status code: 500 (request 17)", 2),
        ("", "", 1),
    ]
    assert groups[1].integration == HOOK and groups[1].first_seen == groups[1].last_seen == T0


def test_a_group_holds_its_newest_failure_and_a_merge_keeps_the_newer() -> None:
    """Issue 48, item 4: `failures --group` names each group's newest triggering change."""
    from flagtui.triage.merge import merge_groups

    old, new = failure(HOOK, "status code: 500", 1), failure(HOOK, "status code: 502", 9)
    (group,) = group_failures([old, new, failure(HOOK, "status code: 503", 4)])
    assert group.newest == new
    (merged,) = merge_groups([group], [failure(HOOK, "status code: 504", 12)])
    assert (merged.count, merged.newest.delivery.state_details) == (4, "status code: 504")
    (kept,) = merge_groups([group], [failure(HOOK, "status code: 504", 2)])
    assert kept.newest == new


def test_the_newest_of_two_at_one_time_is_the_higher_delivery_id_a_number() -> None:
    from flagtui.triage.grouping import newer, recency

    def at(delivery_id: str, minutes: int = 0) -> Failure:
        delivery = IntegrationEvent(
            id=delivery_id, integration_id=HOOK.id, created_at=T0 + timedelta(minutes=minutes),
            state="failed", state_details="x",
        )  # fmt: skip
        return Failure(HOOK, Delivery.of(delivery), "live")

    nine, ten, named = at("9"), at("10"), at("x1")
    assert recency(ten) == (T0, 10) and recency(named) == (T0, 0)
    assert newer(nine, ten) is ten and newer(ten, nine) is ten  # 10 > 9 as numbers
    assert newer(named, nine) is nine and newer(None, nine) is nine and newer(nine, None) is nine
    assert newer(None, None) is None
    twin = at("9")
    assert newer(nine, twin) is nine  # a tie keeps the first
    assert newer(at("99"), at("1", minutes=1)).delivery.id == "1"  # time first
