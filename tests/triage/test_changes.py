"""What `failures --report-changes` reports (issue 48, item 4): a group new, changed or
recovered since the state, then nothing until the next change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flagtui.api.models import IntegrationEvent
from flagtui.triage.changes import changes, read_state, state_data
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
