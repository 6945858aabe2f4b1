"""How far back a live read vouches for each integration (`triage.coverage`), on listings as a
read of the server gives them: delivery ids one sequence across integrations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flagtui.triage.coverage import unreached, vouched_since

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_a_run_of_ids_from_the_first_vouches_for_everything() -> None:
    listed = {1: [(3, at(3)), (1, at(1))], 2: [(2, at(2))], 3: []}
    assert vouched_since(listed) == {1: None, 2: None, 3: None}
    assert unreached(listed, None) == {}


def test_a_forgotten_id_stops_the_run_there() -> None:
    # Id 4 is listed by nobody: forgotten. Integration 1 is vouched for back to id 5 only;
    # integration 2, whose oldest listed (3) runs down to 1, from the beginning.
    listed = {1: [(6, at(6)), (5, at(5))], 2: [(3, at(3)), (2, at(2)), (1, at(1))]}
    assert vouched_since(listed) == {1: at(5), 2: None}
    assert unreached(listed, at(4)) == {1: at(5)}
    assert unreached(listed, at(5)) == {}  # the window starts where the run does
    assert unreached(listed, at(4), integration_id=2) == {}


def test_an_id_that_is_not_a_number_vouches_only_for_its_own_listing() -> None:
    listed = {1: [(0, at(9)), (0, at(7))]}
    assert vouched_since(listed) == {1: at(7)}
