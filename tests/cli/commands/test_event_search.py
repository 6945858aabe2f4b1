"""`flagtui event search`: golden JSON, and `--since`."""

from __future__ import annotations

import json

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


def test_a_since_window_cut_by_the_limit_says_so_in_every_format(run):
    """Issue 23, item 7: before, the newest --limit events were printed and nothing said the
    window held more."""
    for days in ("9", "10", "11"):  # three recent events
        assert run("type", "lifetime", "operational", days).code == 0
    for output in ("json", "jsonl", "csv", "table"):
        cut = run("event", "search", "--since", "10m", "--limit", "2", "-o", output)
        assert cut.code == 0
        if output == "json":
            assert len(cut.json) == 2
        if output in ("json", "jsonl"):
            said = json.loads(cut.err)["answer"]
            assert said == {"shown": 2, "more": True, "cut": "limit"}
        else:
            assert cut.line == (
                "flagtui: event search: showing the newest 2 events; --since holds more (--limit)"
            )
    whole = run("event", "search", "--since", "10m", "--limit", "3")
    assert len(whole.json) == 3 and whole.err == ""  # all of the window: nothing to say


def test_an_event_type_the_contract_does_not_list_is_refused_with_a_near_miss(run):
    """Before, `--type feature-archive` (a typo) answered `[]`, exit 0: "nothing archived"."""
    typo = run("event", "search", "--type", "feature-archive")
    assert (typo.code, typo.error["kind"]) == (2, "invalid-argument")
    assert typo.error["message"] == (
        "type: 'feature-archive' is not an event type; did you mean feature-archived?"
    )
    far = run("event", "search", "--type", "zzz")
    assert far.code == 2 and "'zzz' is not an event type" in far.error["message"]
    assert run("event", "search", "--type", "feature-archived", "--limit", "1").code == 0
