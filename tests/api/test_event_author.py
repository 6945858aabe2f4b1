"""The event search's author filter: a user id, sent on the GET route (the only one with it)."""

from __future__ import annotations


async def test_search_by_author_returns_only_their_events(admin):
    newest = (await admin.events.search(limit=50)).events
    uid = next(e.created_by_user_id for e in newest if e.created_by_user_id)
    page = await admin.events.search(created_by=uid, limit=20)
    assert page.events and {e.created_by_user_id for e in page.events} == {uid}
    assert page.total is not None and page.total >= len(page.events)
