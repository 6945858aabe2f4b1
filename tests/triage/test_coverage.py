"""How far back a live read vouches for each integration (`triage.coverage`), on listings as a
read of the server gives them: delivery ids one sequence across integrations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

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


# Each row: the listing (integration id -> its (id, minute) deliveries), then what each
# integration is vouched for back to (None: from the beginning). Ids listed by nobody are
# forgotten; the dict's order is the order a read lists integrations in.
VOUCHED = [
    # a run of two ids down from 6 that stops at the forgotten 4: back to 5, not the beginning
    ({2: [(7, 7), (6, 6)], 1: [(5, 5)]}, {2: 5, 1: 5}),
    # one step short of id 1: the run ends at 2, so delivery 1 may be forgotten
    ({1: [(3, 3), (2, 2)]}, {1: 2}),
    # the run reaches id 1 through another integration's deliveries
    ({1: [(3, 3)], 2: [(2, 2)], 3: [(1, 1)]}, {1: None, 2: None, 3: None}),
    # an integration that listed nothing comes first: the others are still walked
    ({4: [], 1: [(6, 6)], 2: [(5, 5)]}, {4: None, 1: 5, 2: 5}),
    # an id that is not a number comes first: the others are still walked
    ({5: [(0, 8)], 1: [(3, 3)], 2: [(2, 2), (1, 1)]}, {5: 8, 1: None, 2: None}),
]


@pytest.mark.parametrize(("listed", "expected"), VOUCHED)
def test_the_run_of_ids_decides_how_far_back_each_integration_is_vouched_for(
    listed, expected
) -> None:
    pages = {i: [(number, at(m)) for number, m in page] for i, page in listed.items()}
    back_to = {i: None if m is None else at(m) for i, m in expected.items()}
    assert vouched_since(pages) == back_to


def test_unreached_names_only_integrations_vouched_for_after_the_windows_start() -> None:
    listed = {1: [(6, at(6))], 2: [(5, at(5))], 3: [(2, at(2)), (1, at(1))]}
    assert unreached(listed, None) == {1: at(5), 2: at(5)}  # ever: 3 alone is complete
    assert unreached(listed, at(4)) == {1: at(5), 2: at(5)}
    assert unreached(listed, at(5)) == {}  # the window starts at the run's oldest: vouched for
    assert unreached(listed, at(4), integration_id=1) == {1: at(5)}
    assert unreached(listed, at(4), integration_id=3) == {}
    assert unreached(listed, at(4), integration_id=9) == {}
