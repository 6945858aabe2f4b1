"""`flagtui event search`: golden JSON, and `--since`."""

from __future__ import annotations

from .helpers import assert_piped_golden


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(
        run, "event-search", "event", "search", "--project", "default", "--limit", "5"
    )


def test_event_search_since_keeps_only_recent_events(run):
    # The demo's events are from 2025; a write now makes the one recent event.
    assert run("event", "search", "--since", "10m").json == []
    assert run("type", "lifetime", "operational", "9").code == 0
    recent = run("event", "search", "--since", "10m").json
    assert [e["type"] for e in recent] == ["feature-type-updated"]
