"""`flagtui feature strategy order`: the strategies named first, the others after them as they
were; strategy-order-changed recorded; the same order is not sent again."""

from __future__ import annotations

from testkit.pty_term import Term
from testkit.second_admin import second_admin

from ..processes import FLAGTUI, command_env, finish
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


def test_a_reorder_made_while_asked_stops_it_unless_anyway(cli_env, sandbox, server):
    """Another admin reorders while the production question waits: nothing sent (exit 2), their
    order said and kept; with --anyway the ones named go first in the order as it is now."""
    url = f"{FEATURES}/{FLAG}/environments/production/strategies"
    for name in ("default", "flexibleRollout"):
        assert server.post(url, json={"name": name}).status_code == 200
    ids = [s["id"] for s in strategies(server, FLAG, "production")]
    token, who = second_admin(sandbox)
    theirs = [*reversed(ids)]

    def reorder_while_asked(*extra: str) -> Term:
        argv = [*FLAGTUI, "feature", "strategy", "order", "default", FLAG, "production", ids[1],
                *extra]  # fmt: skip
        term = Term(argv, command_env(cli_env, sandbox), cols=200)
        term.wait_for(lambda t: t.has("Type 'production' to confirm"), what="the question")
        body = [{"id": i, "sortOrder": n} for n, i in enumerate(theirs)]
        other = server.post(f"{url}/set-sort-order", json=body, headers={"Authorization": token})
        assert other.status_code == 200, other.text
        term.send("production\r")
        return term

    term = reorder_while_asked()
    assert finish(term) == 2
    assert "changed since read: order: shown [" in term.text()
    assert f"strategy-order-changed by {who} at " in term.text()
    assert [s["id"] for s in strategies(server, FLAG, "production")] == theirs
    theirs = ids  # their next reorder, while --anyway's question waits
    assert finish(reorder_while_asked("--anyway")) == 0
    assert [s["id"] for s in strategies(server, FLAG, "production")] == [
        ids[1], *(i for i in ids if i != ids[1])
    ]  # fmt: skip
