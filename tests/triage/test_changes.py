"""What `failures --report-changes` reports (issue 48, item 4): a group new, changed or
recovered since the state, then nothing until the next change."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from flagtui.api.models import IntegrationEvent
from flagtui.triage.changes import Change, changes, read_state, state_data
from flagtui.triage.grouping import group_failures
from flagtui.triage.records import Delivery, Failure, FailureWindow, IntegrationRef

HOOK = IntegrationRef(2, "webhook", "Deploy alerts")
T0 = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)


def failure(text: str, minutes: int, ref: IntegrationRef = HOOK) -> Failure:
    delivery = IntegrationEvent(
        id=str(minutes), integration_id=ref.id, created_at=T0 + timedelta(minutes=minutes),
        state="failed", state_details=text,
    )  # fmt: skip
    return Failure(ref, Delivery.of(delivery), "live")


def window(*failures: Failure, ref: IntegrationRef = HOOK, **known) -> FailureWindow:
    return FailureWindow("live", None, [ref], groups=group_failures(failures), **known)


def text(group) -> str:
    return group.newest.delivery.state_details


def run(answer: FailureWindow, held):
    found, kept = changes(answer, held, text)
    return [c.kind for c in found], read_state(state_data(kept))  # as written and read again


def test_new_then_nothing_while_it_fails_alike_then_changed_when_it_reads_otherwise() -> None:
    kinds, held = run(window(failure("status code: 403", 1)), {})
    assert kinds == ["new"]
    kinds, held = run(window(failure("status code: 403", 1), failure("status code: 403", 5)), held)
    assert kinds == []
    assert next(iter(held.values()))["count"] == 2  # the state follows it, silently
    kinds, held = run(window(failure("status code: 403", 5), failure("status code: 500", 9)), held)
    assert kinds == ["changed"]


def test_silence_is_not_recovery_but_a_success_after_it_or_disabling_is() -> None:
    _, held = run(window(failure("refused", 1)), {})
    assert run(window(), held)[0] == []  # nothing sent to it: still failing
    earlier = {HOOK.id: T0}  # a success before the failure proves nothing
    assert run(window(succeeded=earlier), held)[0] == []
    kinds, after = run(window(succeeded={HOOK.id: T0 + timedelta(minutes=2)}), held)
    assert kinds == ["recovered"]
    assert run(window(succeeded={HOOK.id: T0 + timedelta(minutes=2)}), after)[0] == []
    off = IntegrationRef(2, "webhook", "Deploy alerts", enabled=False)
    # Disabled: recovered even while its last failure is still in the window.
    assert run(window(failure("refused", 1, off), ref=off), held)[0] == ["recovered"]


def test_a_recovered_group_failing_again_is_new_and_an_incomplete_answer_recovers_nothing() -> None:
    _, held = run(window(failure("refused", 1)), {})
    _, held = run(window(succeeded={HOOK.id: T0 + timedelta(minutes=2)}), held)
    assert run(window(failure("refused", 1)), held)[0] == []  # the old failure: seen
    assert run(window(failure("refused", 7)), held)[0] == ["new"]
    _, failing = run(window(failure("refused", 1)), {})
    blind = window(succeeded={HOOK.id: T0 + timedelta(minutes=2)}, complete=False)
    assert run(blind, failing)[0] == []


def test_an_answer_of_one_integration_leaves_the_others_groups_alone() -> None:
    other = IntegrationRef(3, "slack", "Ops")
    _, held = run(window(failure("refused", 1), failure("gone", 1, other), ref=HOOK), {})
    assert len(held) == 2
    succeeded = {HOOK.id: T0 + timedelta(minutes=2), other.id: T0 + timedelta(minutes=2)}
    answer = FailureWindow("live", None, [HOOK, other], succeeded=succeeded)
    found, kept = changes(answer, held, text, integration_id=HOOK.id)
    assert [(c.kind, c.integration.id) for c in found] == [("recovered", HOOK.id)]
    assert kept[(other.id, "gone")]["status"] == "failing"


def test_the_report_and_the_state_say_exactly_what_was_seen() -> None:
    first, later = failure("refused", 1), failure("refused", 3)
    found, kept = changes(window(first, later), {}, text)
    (group,) = window(first, later).groups
    assert found == [Change("new", HOOK, group, {})]
    assert kept == {
        (2, "refused"): {
            "integrationId": 2, "errorKey": "refused", "status": "failing",
            "integration": "Deploy alerts (webhook)", "text": "refused", "count": 2,
            "firstSeen": "2026-11-23T03:01:00Z", "lastSeen": "2026-11-23T03:03:00Z",
        }
    }  # fmt: skip
    before = kept[(2, "refused")]
    held = {(2, "refused: <n>"): before | {"errorKey": "refused: <n>"}}
    changed, _ = changes(window(failure("refused: 500", 4)), held, text)
    assert [(c.kind, c.remembered) for c in changed] == [("changed", held[(2, "refused: <n>")])]
    assert changed[0].group is not None and changed[0].integration == HOOK


def test_every_recovered_group_is_said_with_what_was_remembered_gone_ones_as_deleted() -> None:
    other = IntegrationRef(3, "slack", "Ops")
    _, held = run(FailureWindow("live", None, [HOOK, other], groups=group_failures([
        failure("refused", 1), failure("gone", 1, other),
    ])), {})  # fmt: skip
    found, kept = changes(FailureWindow("live", None, []), held, text)  # both gone
    assert [(c.kind, c.integration, c.group, c.remembered) for c in found] == [
        ("recovered", IntegrationRef(2, "unknown", deleted=True), None, held[(2, "refused")]),
        ("recovered", IntegrationRef(3, "unknown", deleted=True), None, held[(3, "gone")]),
    ]
    assert kept[(2, "refused")] == held[(2, "refused")] | {
        "status": "recovered", "integration": "unknown #2 [deleted]"
    }  # fmt: skip
    success_at_last = {HOOK.id: T0 + timedelta(minutes=1)}  # not after the last failure
    assert changes(FailureWindow("live", None, [HOOK], succeeded=success_at_last), {
        (2, "refused"): held[(2, "refused")]
    }, text)[0] == []  # fmt: skip


def test_recovered_groups_older_than_the_window_are_forgotten_failing_ones_kept() -> None:
    _, held = run(window(failure("refused", 1), failure("gone", 1)), {})
    off = IntegrationRef(2, "webhook", "Deploy alerts", enabled=False)
    _, held = run(window(ref=off), held)
    assert {v["status"] for v in held.values()} == {"recovered"}
    at_last = FailureWindow("live", T0 + timedelta(minutes=1), [off])
    assert len(changes(at_last, held, text)[1]) == 2  # the window starts at their last
    after = FailureWindow("live", T0 + timedelta(minutes=2), [off])
    assert changes(after, held, text)[1] == {}
    _, failing = run(window(failure("refused", 1)), {})
    assert changes(FailureWindow("live", T0 + timedelta(days=1), [HOOK]), failing, text)[1] == (
        failing
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ([], "not a failure-groups state of version 1"),
        ({"version": 2, "groups": []}, "not a failure-groups state of version 1"),
        ({"version": 1, "groups": {}}, "its `groups` is not a list"),
        ({"version": 1, "groups": [{"integrationId": 1}]}, "a group it holds cannot be read"),
        ({"version": 1, "groups": [{"integrationId": "x", "errorKey": "", "lastSeen": "x"}]},
         "a group it holds cannot be read"),
    ],
)  # fmt: skip
def test_a_state_that_is_not_one_is_said(data, said) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(said)):
        read_state(data)


def test_a_success_recovers_only_a_group_quiet_for_the_whole_window() -> None:
    _, held = run(window(failure("refused", 1)), {})
    later_success = {HOOK.id: T0 + timedelta(minutes=2)}
    still_in_window = window(failure("refused", 1), succeeded=later_success)
    assert changes(still_in_window, held, text)[0] == []
    off = IntegrationRef(2, "webhook", "Deploy alerts", enabled=False)
    first = {(9, "x"): {**held[(2, "refused")], "integrationId": 9, "status": "recovered"}}
    found, _ = changes(window(ref=off), first | held, text)  # a recovered one listed first
    assert [(c.kind, c.integration) for c in found] == [("recovered", off)]
