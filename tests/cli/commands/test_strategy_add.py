"""`flagtui feature strategy add`: the strategy as stored and the JSON said; production needs
--yes off a terminal; bad input refused naming the field with nothing sent; a dry run shows
the request."""

from __future__ import annotations

import json

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
    answer = result.json
    assert "appName" in answer.pop("preview")["context"]  # what it says: test_previews.py
    assert answer == {
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
        # Issue 44, item 3: each was sent before, as Unleash or the SDKs misread it.
        (
            (
                "--constraint",
                '{"contextName": "userId", "operator": "IN", "values": ["a"],'
                ' "caseInsensitive": "yes"}',
            ),
            "--constraint: caseInsensitive: Input should be a valid boolean (given 'yes')",
        ),
        (
            (
                "--constraint",
                '{"contextName": "userId", "operator": "IN", "values": ["a"], "value": "b"}',
            ),
            "constraints[0].value: give value or values, not both",
        ),
        (("--variant", "a", "--payload", "a=number:NaN"), "variants[0].payload.value: not valid"),
        (("--variant", "a", "--payload", "a=number:1e309"), "variants[0].payload.value: number"),
        (
            ("--variant", "a=100%", "--variant", "b"),
            "variants[1].weight: the fixed weights leave 0",
        ),
        (("--constraint", "email REGEX (?=x)"), "constraints[0].value: '(?=x)' is not a regular"),
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
    answer = result.json
    assert answer.pop("preview")["users"] == 10_000  # what it says: test_previews.py
    assert answer == {
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
    # a disabled strategy changes no one
    assert lines[0] == "preview: 0 → 0 of 10,000 synthetic userIds get the flag in development"
    assert lines[1].startswith("done: feature-strategy-add project=default")
    assert lines[2] == f"  flexibleRollout 30 % by default, group {FLAG} [disabled]"


def test_read_only_profile_is_refused_before_any_request(run, cli_env):
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    result = run(*ADD, "production", "--rollout", "10", "--yes", "-P", "ro")
    assert result.code == 2
    assert result.error["kind"] == "read-only"


def test_a_field_the_server_does_not_list_is_added_with_a_warning(run, server):
    """As Unleash accepts it (issue 43, item 6): before, refused with no way around."""
    before = [s["id"] for s in strategies(server, FLAG, "development")]
    result = run(
        *ADD, "development", "--rollout", "20", "--stickiness", "deviceId",
        "--constraint", "remoteAddress IN 10.0.0.1", "--constraint", r"email REGEX ^(?i)\pL+\z",
    )  # fmt: skip
    assert result.code == 0, result.err
    warnings = [json.loads(line)["warning"] for line in result.err.splitlines()]
    assert [(w["kind"], w["field"]) for w in warnings] == [
        ("unlisted-context-field", "constraints[0].contextName"),
        ("unlisted-context-field", "parameters.stickiness"),
    ]
    assert warnings[0]["message"] == (
        "'remoteAddress' is not a context field of this server: SDKs must send it"
    )
    [added] = [s for s in strategies(server, FLAG, "development") if s["id"] not in before]
    assert added["parameters"]["stickiness"] == "deviceId"
    assert [c["contextName"] for c in added["constraints"]] == ["remoteAddress", "email"]
    table = run(*ADD, "development", "--constraint", "remoteAddress IN 10.0.0.2", "-o", "table")
    assert table.code == 0
    assert "flagtui: warning: constraints[0].contextName: 'remoteAddress' is not a context" in (
        table.err
    )
