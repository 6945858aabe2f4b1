"""How far back a read of the live server vouches for each integration's deliveries.

The server forgets (real Unleash keeps the newest 100 deliveries of the last 2 hours across all
integrations, plus each integration's latest), and one read asks each integration for at most
its newest `SERVER_PAGE`. Delivery ids are one sequence across integrations (a BIGSERIAL), so a
run of ids with none missing, from an integration's oldest listed delivery down, proves that no
delivery of it in that stretch was forgotten or left unread: an id listed by nobody is a
delivery the server forgot, or one beyond some integration's page. An integration is vouched
for back to the oldest delivery of that run; back to the beginning when the run reaches id 1
(the server never forgot anything) or when it listed nothing (it never had a delivery: the
server keeps each integration's latest). An id that is not a number vouches for nothing
before the integration's oldest listed delivery."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

Listed = Mapping[int, Sequence[tuple[int, datetime]]]
"""Integration id -> the deliveries a read listed for it, (id, time)."""

FIRST_ID = 1


def vouched_since(listed: Listed) -> dict[int, datetime | None]:
    """Integration id -> the time from which every delivery of it was listed; None: all of
    them, from the beginning."""
    times = {number: at for page in listed.values() for number, at in page}
    back_to: dict[int, datetime | None] = {}
    for integration_id, page in listed.items():
        if not page:
            back_to[integration_id] = None
            continue
        number = min(number for number, _ in page)
        if number < FIRST_ID:  # an id that is not a number (0): its own listing only
            back_to[integration_id] = min(at for _, at in page)
            continue
        while number - 1 in times:
            number -= 1
        back_to[integration_id] = None if number <= FIRST_ID else times[number]
    return back_to


def unreached(
    listed: Listed, since: datetime | None, integration_id: int | None = None
) -> dict[int, datetime]:
    """The integrations (all, or `integration_id`) whose deliveries since `since` (None: ever)
    the read does not vouch for, each with the time it is vouched for back to."""
    return {
        i: at
        for i, at in vouched_since(listed).items()
        if integration_id in (None, i) and at is not None and (since is None or at > since)
    }
