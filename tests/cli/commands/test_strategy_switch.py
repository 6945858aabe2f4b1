"""`flagtui feature strategy disable|enable`: one strategy, PATCHed; nothing sent when already
so; the last enabled one disabled switches the environment off, and that is said."""

from __future__ import annotations

from .rollout_helpers import FEATURES, TEN_PERCENT, strategies

FLAG, STRATEGY = TEN_PERCENT


def production_enabled(server) -> bool:
    envs = server.get(f"{FEATURES}/{FLAG}").json()["environments"]
    return bool(next(e["enabled"] for e in envs if e["name"] == "production"))


def test_disable_the_last_one_then_enable_it(run, server):
    assert production_enabled(server)
    argv = ("default", FLAG, "production", STRATEGY, "--yes")
    result = run("feature", "strategy", "disable", *argv, "-o", "table")
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1] == (
        "no enabled strategy is left: Unleash switches production off"
    )
    assert strategies(server, FLAG, "production")[0]["disabled"] is True
    assert production_enabled(server) is False
    again = run("feature", "strategy", "disable", *argv)
    assert again.code == 0
    assert again.json["done"] is None and again.json["unchanged"].startswith("already disabled")
    enabled = run("feature", "strategy", "enable", *argv)
    assert enabled.code == 0, enabled.err
    assert enabled.json["done"] == "feature-strategy-update"
    assert strategies(server, FLAG, "production")[0]["disabled"] is False


def test_dry_run_shows_the_patch(run, server):
    result = run(
        "feature", "strategy", "disable", "default", FLAG, "production", "rollout", "--dry-run"
    )
    assert result.code == 0, result.err
    assert result.json["method"] == "PATCH"
    assert result.json["body"] == [{"op": "replace", "path": "/disabled", "value": True}]
    assert strategies(server, FLAG, "production")[0]["disabled"] is False


def test_production_needs_yes_when_not_on_a_terminal(run, server):
    result = run("feature", "strategy", "disable", "default", FLAG, "production", STRATEGY)
    assert result.code == 2
    assert result.error["kind"] == "not-confirmed"
    assert strategies(server, FLAG, "production")[0]["disabled"] is False
