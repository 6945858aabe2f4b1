"""`flagtui feature strategy remove`: the strategy gone, feature-strategy-remove recorded; a
strategy no longer there is refused before sending."""

from __future__ import annotations

from .helpers import assert_piped_golden
from .rollout_helpers import BETA_TENANTS, refused_before_sending, strategies

FLAG, STRATEGY = BETA_TENANTS
REMOVE = ("feature", "strategy", "remove", "default", FLAG, "production", STRATEGY, "--yes")


def test_prints_its_answer_as_json_when_piped(run, server):
    assert_piped_golden(run, "feature-strategy-remove", *REMOVE)
    assert strategies(server, FLAG, "production") == []
    events = server.get("/api/admin/search/events", params={"limit": 2}).json()["events"]
    assert [e["type"] for e in events] == [
        "feature-strategy-remove",
        "feature-environment-disabled",
    ]
    said = refused_before_sending(run, server, *REMOVE)
    assert said.startswith("STRATEGY: 'rollout-example-1' matches none")


def test_production_needs_yes_when_not_on_a_terminal(run, server):
    result = run(*REMOVE[:-1])
    assert result.code == 2
    assert result.error["kind"] == "not-confirmed"
    assert len(strategies(server, FLAG, "production")) == 1
