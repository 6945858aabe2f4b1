"""The live source reads every integration's deliveries from a real sandbox."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from held_transport import Held

from flagtui.api import AdminClient
from flagtui.triage.source import LiveSource, aware


async def test_live_window_holds_every_failure_the_server_has(admin: AdminClient) -> None:
    addons = (await admin.integrations.list()).addons
    expected = {
        (a.id, d.id)
        for a in addons
        for d in await admin.integrations.events(a.id, limit=100)
        if d.failed
    }
    window = await LiveSource(admin).window(None)
    assert expected and {(f.integration.id, f.delivery.id) for f in window.failures} == expected
    assert window.total == len(expected) and window.origin == "live"
    times = [aware(f.delivery.created_at) for f in window.failures]
    assert times == sorted(times, reverse=True)
    assert window.covers_since is not None and window.covers_since <= times[-1]


async def test_live_window_since_and_groups(admin: AdminClient) -> None:
    source = LiveSource(admin)
    everything = await source.window(None)
    newest = aware(everything.failures[0].delivery.created_at)
    recent = await source.window(newest - timedelta(seconds=1))
    assert 1 <= recent.total < everything.total
    grouped = await source.grouped(None)
    assert sum(g.count for g in grouped.groups) == everything.total
    assert not grouped.failures


async def test_live_histogram_counts_each_integrations_failures_per_span(
    admin: AdminClient,
) -> None:
    source = LiveSource(admin)
    everything = await source.window(None)
    newest = aware(everything.failures[0].delivery.created_at)
    since, until = newest - timedelta(hours=6), newest
    counts = await source.histogram(since, until, 6)
    assert set(counts) == {ref.id for ref in everything.integrations}
    assert all(len(row) == 6 for row in counts.values())
    expected = {ref.id: [0] * 6 for ref in everything.integrations}
    for failure in everything.failures:
        at = aware(failure.delivery.created_at)
        if since <= at <= until:  # hourly spans; `until` itself falls in the last one
            expected[failure.integration.id][min(int((at - since) / timedelta(hours=1)), 5)] += 1
    assert counts == expected and any(map(any, counts.values()))
    assert counts[everything.failures[0].integration.id][-1] >= 1  # the newest, last span


async def test_known_integrations_are_read_with_the_list_not_after_it(sandbox) -> None:
    """One round trip when the list has not changed: with the list's answer held, every known
    integration's deliveries are asked for, and answered, all the same."""
    async with AdminClient(sandbox.url, sandbox.admin_token) as plain:
        ids = [a.id for a in (await plain.integrations.list()).addons]
        expected = await LiveSource(plain).window(None)
    held = Held(lambda path: path == "/api/admin/addons")
    listed: list[list[int]] = []
    async with AdminClient(sandbox.url, sandbox.admin_token, transport=held) as client:
        reading = asyncio.create_task(LiveSource(client, ids, listed.append).window(None))
        for addon_id in ids:  # the code before waited for the list: this timed out
            await asyncio.wait_for(held.answer_to(f"/api/admin/addons/{addon_id}/events"), 10)
        assert "/api/admin/addons" not in held.answered
        held.release()
        window = await reading
    assert [f.delivery.id for f in window.failures] == [f.delivery.id for f in expected.failures]
    assert listed == [ids]
    assert held.sent.count("/api/admin/addons") == 1 and len(held.sent) == 1 + len(ids)


async def test_an_integration_added_or_gone_since_is_read_or_dropped(admin: AdminClient) -> None:
    """Known ids are a guess: one the list no longer has (its read fails with a 404) changes
    nothing, one it adds is read once the list names it."""
    ids = [a.id for a in (await admin.integrations.list()).addons]
    expected = await LiveSource(admin).window(None)
    source = LiveSource(admin, [ids[0], 987654])
    window = await source.window(None)
    assert [f.delivery.id for f in window.failures] == [f.delivery.id for f in expected.failures]
    assert source.known_ids == ids
