"""`flagtui feature strategy add`: the strategy as stored and the JSON said; production needs
--yes off a terminal; bad input refused naming the field with nothing sent; a dry run shows
the request."""

from __future__ import annotations

from .helpers import assert_dry_run_sends_nothing
from .rollout_helpers import refused_before_sending, strategies

FLAG = "admin-async-emails"
ADD = ("feature", "strategy", "add", "default", FLAG)


def test_adds_a_gradual_rollout_with_constraints_segments_and_variants(run, server):
    before = [s["id"] for s in strategies(server, FLAG, "development")]
    result = run(
        *ADD, "development", "--rollout", "10", "--stickiness", "userId",
        "--constraint", "userId IN u-1, u-2", "--constraint", "appVersion SEMVER_GTE 4.2.0",
        "--segment", "beta-testers", "--variant", "blue", "--variant", "green=25%",
        "--payload", "green=string:g", "--title", "ten percent",
    )  # fmt: skip
    assert result.code == 0, result.err
    [added] = [s for s in strategies(server, FLAG, "development") if s["id"] not in before]
    assert result.json == {
        "done": "feature-strategy-add",
        "project": "default",
        "featureName": FLAG,
        "environment": "development",
        "strategyId": added["id"],
    }
    assert added["parameters"] == {"rollout": "10", "stickiness": "userId", "groupId": FLAG}
    assert added["constraints"] == [
        {"contextName": "userId", "operator": "IN", "values": ["u-1", "u-2"]},
        {"contextName": "appVersion", "operator": "SEMVER_GTE", "values": [], "value": "4.2.0"},
    ]
    segments = server.get("/api/admin/segments").json()["segments"]
    assert added["segments"] == [next(s["id"] for s in segments if s["name"] == "beta-testers")]
    assert [
        (v["name"], v["weight"], v["weightType"], v["stickiness"]) for v in added["variants"]
    ] == [
        ("blue", 750, "variable", "userId"),
        ("green", 250, "fix", "userId"),
    ]
    assert added["variants"][1]["payload"] == {"type": "string", "value": "g"}
    assert added["title"] == "ten percent"


def test_production_needs_yes_when_not_on_a_terminal(run, server):
    before = strategies(server, FLAG, "production")
    result = run(*ADD, "production", "--rollout", "10")
    assert result.code == 2
    assert result.error["kind"] == "not-confirmed"
    assert strategies(server, FLAG, "production") == before
    assert run(*ADD, "production", "--rollout", "10", "--yes").code == 0
    assert len(strategies(server, FLAG, "production")) == len(before) + 1


def test_bad_input_is_refused_naming_the_field_and_nothing_is_sent(run, server):
    cases = [
        (("--rollout", "101"), "--rollout: a whole percentage from 0 to 100"),
        (
            ("--variant", "a=600", "--variant", "b=300"),
            "variants.weight: the weights add up to 900",
        ),
        (
            ("--constraint", "appVersion SEMVER_GT abc"),
            "constraints[0].value: 'abc' is not a semantic version",
        ),
        (
            ("--constraint", "tenant IN acme"),
            "constraints[0].contextName: 'tenant' is not a context field",
        ),
        (("--segment", "nope"), "segments[0]: no segment 'nope'"),
        (("--type", "gradualRollout"), "name: 'gradualRollout' is not a strategy type"),
        (("--type", "default", "--rollout", "5"), "--rollout: only a gradual rollout"),
        (("--variant", "a=33.33%"), "--variant a: '33.33%': a percentage"),
        (("--constraint", "userId"), "--constraint: 'userId': expected"),
    ]
    for options, said in cases:
        message = refused_before_sending(run, server, *ADD, "production", "--yes", *options)
        assert message.startswith(said), (options, message)


def test_dry_run_shows_the_request_and_sends_nothing(run, server):
    result = run(*ADD, "production", "--rollout", "5", "--dry-run")
    assert result.code == 0, result.err
    assert result.json == {
        "dryRun": True,
        "method": "POST",
        "path": f"/api/admin/projects/default/features/{FLAG}/environments/production/strategies",
        "body": {
            "name": "flexibleRollout",
            "parameters": {"rollout": "5", "stickiness": "default", "groupId": FLAG},
            "constraints": [],
            "segments": [],
            "variants": [],
        },
    }
    assert_dry_run_sends_nothing(run, server, *ADD, "development", "--type", "default")


def test_a_table_says_the_strategy_added(run):
    result = run(*ADD, "development", "--rollout", "30", "--disabled", "-o", "table")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("done: feature-strategy-add project=default")
    assert lines[1] == f"  flexibleRollout 30 % by default, group {FLAG} [disabled]"


def test_read_only_profile_is_refused_before_any_request(run, cli_env):
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    result = run(*ADD, "production", "--rollout", "10", "--yes", "-P", "ro")
    assert result.code == 2
    assert result.error["kind"] == "read-only"
