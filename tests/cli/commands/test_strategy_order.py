"""`flagtui feature strategy order`: the strategies named first, the others after them as they
were; strategy-order-changed recorded; the same order is not sent again."""

from __future__ import annotations

from .rollout_helpers import FEATURES, strategies

FLAG = "admin-async-emails"


def test_the_named_ones_first(run, server):
    url = f"{FEATURES}/{FLAG}/environments/development/strategies"
    for name in ("default", "flexibleRollout"):
        assert server.post(url, json={"name": name}).status_code == 200
    ids = [s["id"] for s in strategies(server, FLAG, "development")]
    assert len(ids) >= 3
    result = run("feature", "strategy", "order", "default", FLAG, "development", ids[-1], ids[-2])
    assert result.code == 0, result.err
    assert result.json["done"] == "strategy-order-changed"
    assert [s["id"] for s in strategies(server, FLAG, "development")] == [
        ids[-1],
        ids[-2],
        *ids[:-2],
    ]
    again = run("feature", "strategy", "order", "default", FLAG, "development", ids[-1][:12])
    assert again.code == 0
    assert again.json["done"] is None
