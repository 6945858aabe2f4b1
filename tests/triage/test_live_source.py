"""The live source reads every integration's deliveries from a real sandbox."""

from __future__ import annotations

from datetime import timedelta

from flagtui.api import AdminClient
from flagtui.triage.source import LiveSource, aware


async def test_live_window_holds_every_failure_the_server_has(admin: AdminClient) -> None:
    addons = (await admin.list_addons()).addons
    expected = {
        (a.id, d.id)
        for a in addons
        for d in await admin.list_integration_events(a.id, limit=100)
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
