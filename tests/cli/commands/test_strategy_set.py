"""`flagtui feature strategy set`: a strategy named by the start of its id changed by the
options given (the rest kept), lists replaced or cleared; nothing sent when already so or when
nothing is asked; bad input refused naming the field."""

from __future__ import annotations

from typing import Any

from testkit.pty_term import Term
from testkit.second_admin import second_admin

from ..processes import FLAGTUI, command_env, finish
from .rollout_helpers import (
    BETA_TENANTS,
    FEATURES,
    TEN_PERCENT,
    refused_before_sending,
    strategies,
)

SET = ("feature", "strategy", "set", "default")


def test_rollout_to_zero_keeps_the_rest(run, server):
    flag, strategy_id = TEN_PERCENT
    [before] = strategies(server, flag, "production")
    result = run(*SET, flag, "production", "rollout-example", "--rollout", "0", "--yes")
    assert result.code == 0, result.err
    assert result.json["done"] == "feature-strategy-update"
    assert result.json["strategyId"] == strategy_id
    [after] = strategies(server, flag, "production")
    assert after == {**before, "parameters": {**before["parameters"], "rollout": "0"}}
    events = server.get("/api/admin/search/events", params={"limit": 1}).json()["events"]
    assert events[0]["type"] == "feature-strategy-update"


def test_lists_are_replaced_or_cleared(run, server):
    flag, strategy_id = BETA_TENANTS
    argv = (*SET, flag, "production", strategy_id, "--yes")
    assert run(*argv, "--constraint", "plan IN pro,premium", "--segment", "eu-customers").code == 0
    [changed] = strategies(server, flag, "production")
    assert changed["constraints"] == [
        {"contextName": "plan", "operator": "IN", "values": ["pro", "premium"]}
    ]
    assert len(changed["segments"]) == 1
    assert run(*argv, "--clear-constraints", "--clear-segments").code == 0
    [cleared] = strategies(server, flag, "production")
    assert (cleared["constraints"], cleared["segments"]) == ([], [])


def test_nothing_is_sent_when_already_so_or_nothing_is_asked(run, server):
    flag, strategy_id = TEN_PERCENT
    result = run(*SET, flag, "production", strategy_id, "--rollout", "10", "--yes")
    assert result.code == 0, result.err
    assert result.json["done"] is None
    assert result.json["unchanged"] == f"already so in {flag}/production"
    events = server.get("/api/admin/search/events", params={"limit": 1}).json()["events"]
    assert events[0]["type"] != "feature-strategy-update"
    nothing = run(*SET, flag, "production", strategy_id, "--yes")
    assert nothing.code == 2
    assert nothing.error["message"].startswith("nothing to change")


def test_bad_input_is_refused_naming_the_field(run, server):
    flag, strategy_id = TEN_PERCENT
    argv = (*SET, flag, "production", strategy_id, "--yes")
    said = refused_before_sending(run, server, *argv, "--rollout", "101")
    assert said.startswith("--rollout: a whole percentage from 0 to 100")
    said = refused_before_sending(run, server, *argv, "--variant", "a=500", "--variant", "b=400")
    assert said.startswith("variants.weight: the weights add up to 900, not 1000")
    said = refused_before_sending(run, server, *argv, "--stickiness", " ")
    assert said.startswith("parameters.stickiness: default, random or the name of a context")
    said = refused_before_sending(run, server, *SET, flag, "production", "zzz", "--rollout", "1")
    assert said.startswith("STRATEGY: 'zzz' matches none of the strategies")


def test_dry_run_shows_the_whole_strategy_it_would_put(run, server):
    flag, strategy_id = TEN_PERCENT
    result = run(*SET, flag, "production", strategy_id, "--rollout", "50", "--dry-run")
    assert result.code == 0, result.err
    assert result.json["method"] == "PUT"
    assert result.json["path"].endswith(f"/environments/production/strategies/{strategy_id}")
    assert result.json["body"]["parameters"]["rollout"] == "50"
    assert result.json["body"]["title"] == "10% of production"
    [kept] = strategies(server, flag, "production")
    assert kept["parameters"]["rollout"] == "10"


QUESTION = "Type 'production' to confirm"


def changed_while_asked(sandbox: Any, server: Any, term: Term, **change: Any) -> str:
    """Another admin changes the strategy of TEN_PERCENT while `term` asks; who they are."""
    flag, strategy_id = TEN_PERCENT
    term.wait_for(lambda t: t.has(QUESTION), what="the question")
    token, who = second_admin(sandbox)
    [before] = strategies(server, flag, "production")
    theirs = {**before, **change}
    path = f"{FEATURES}/{flag}/environments/production/strategies/{strategy_id}"
    body = {k: theirs[k] for k in ("name", "title", "parameters", "constraints", "segments")}
    other = server.put(path, json=body, headers={"Authorization": token})
    assert other.status_code == 200, other.text
    term.send("production\r")
    return who


def test_the_options_apply_to_the_strategy_as_it_is_just_before_sending(cli_env, sandbox, server):
    """Another admin adds a constraint while the production question waits: the rollout typed
    here is applied to their strategy (their constraint and title kept), and it is said. The
    question was answered on other numbers (10 % → 60 % of everyone; now no one → no one): it
    is asked again on the new ones before anything is sent."""
    flag, strategy_id = TEN_PERCENT
    argv = [*FLAGTUI, *SET, flag, "production", strategy_id, "--rollout", "60"]
    term = Term(argv, command_env(cli_env, sandbox), cols=200)
    vip = {"contextName": "userId", "operator": "IN", "values": ["vip-only"]}
    who = changed_while_asked(sandbox, server, term, title="VIPs only", constraints=[vip])
    term.wait_for(lambda t: t.text().count(QUESTION) == 2, what="the question asked again")
    assert "the preview above is not the one the question was answered on" in term.text()
    assert term.has("preview: 0 → 0 of 10,000 synthetic userIds"), term.text()
    [unsent] = strategies(server, flag, "production")
    assert unsent["parameters"]["rollout"] == "10"  # nothing sent before the second answer
    term.send("production\r")
    assert finish(term) == 0
    [after] = strategies(server, flag, "production")
    assert after["constraints"] == [vip] and after["title"] == "VIPs only"
    assert after["parameters"]["rollout"] == "60"
    assert "changed since read: constraints: shown [], now" in term.text()
    assert f"feature-strategy-update by {who}" in term.text()


def test_a_change_while_asked_that_leaves_the_numbers_is_not_asked_again(cli_env, sandbox, server):
    flag, strategy_id = TEN_PERCENT
    argv = [*FLAGTUI, *SET, flag, "production", strategy_id, "--rollout", "60"]
    term = Term(argv, command_env(cli_env, sandbox), cols=200)
    changed_while_asked(sandbox, server, term, title="renamed while asked")
    assert finish(term) == 0
    assert term.text().count(QUESTION) == 1, term.text()
    [after] = strategies(server, flag, "production")
    assert (after["title"], after["parameters"]["rollout"]) == ("renamed while asked", "60")
