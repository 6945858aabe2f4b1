"""A flag's creation and rollout from the command line, judged as the admin means them (issue
25): the event log records each change, the official SDK (UnleashClient, yggdrasil inside)
evaluates the flag as asked once it has fetched the state after the write, and the server's
playground agrees. Bad input is refused before anything is sent. Each flag is new (`roll-…`,
made with `flagtui feature create`) and archived at the end, never deleted."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from real_intent import (
    PROJECT,
    flag_event_types_since,
    flag_events_since,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)

pytestmark = pytest.mark.unleash

USERS = 10_000


@pytest.fixture
def roll_flag(flagtui, admin) -> Iterator[str]:
    name = f"roll-{uuid.uuid4().hex[:10]}"
    created = flagtui("feature", "create", PROJECT, name, "--description", "issue 25")
    assert created.code == 0, created.err
    assert json.loads(created.out) == {
        "done": "feature-created",
        "project": PROJECT,
        "featureName": name,
        "type": "release",
    }
    wait_for_stage(admin, PROJECT, name, "initial")  # written after the answer: see `flag`
    yield name
    admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")  # archives


def strategies(flagtui, flag: str) -> list[dict]:
    listed = flagtui("feature", "strategies", PROJECT, flag, "--env", "production")
    assert listed.code == 0, listed.err
    return list(json.loads(listed.out))


def playground(admin, flag: str, user: str) -> bool:
    body = {
        "environment": "production",
        "projects": "*",
        "context": {"appName": "flagtui-rollout", "userId": user},
    }
    answer = admin.post("/api/admin/playground", json=body)
    assert answer.status_code == 200, answer.text
    [found] = [f for f in answer.json()["features"] if f["name"] == flag]
    return bool(found["isEnabled"])


def test_production_rollout_to_ten_percent(flagtui, admin, sdk, roll_flag):
    production = sdk("production")
    production.wait_until(roll_flag, False)
    # switched on, a flag without strategy gets Unleash's flexibleRollout at 100 %
    assert flagtui("feature", "enable", PROJECT, roll_flag, "production", "--yes").code == 0
    production.wait_until(roll_flag, True)
    [strategy] = strategies(flagtui, roll_flag)
    assert strategy["parameters"]["rollout"] == "100"

    mark = newest_event_id(admin)
    set_ = ("feature", "strategy", "set", PROJECT, roll_flag, "production", strategy["id"][:8])
    refused = flagtui(*set_, "--rollout", "10")  # production asks; off a terminal: --yes
    assert refused.code == 2 and "needs --yes" in refused.err
    done = flagtui(*set_, "--rollout", "10", "--yes")
    assert done.code == 0, done.err
    assert json.loads(done.out)["done"] == "feature-strategy-update"
    expected = [("feature-strategy-update", "production")]
    assert wait_for_flag_events(admin, roll_flag, mark, expected) == expected
    [update] = flag_events_since(admin, roll_flag, mark)
    assert (
        update["preData"]["parameters"]["rollout"],
        update["data"]["parameters"]["rollout"],
    ) == (
        "100",
        "10",
    )

    production.wait_for_revision(update["id"])
    on = [u for u in range(USERS) if production.evaluate(roll_flag, {"userId": f"user-{u}"})]
    assert 0.09 * USERS <= len(on) <= 0.11 * USERS, len(on)
    sample = [*on[:5], *[u for u in range(50) if u not in on][:5]]
    for user in sample:  # the server's own evaluation agrees with the SDK's
        assert playground(admin, roll_flag, f"user-{user}") is (user in on)


def test_a_user_id_constraint(flagtui, admin, sdk, roll_flag):
    production = sdk("production")
    production.wait_until(roll_flag, False)
    mark = newest_event_id(admin)
    add = ("feature", "strategy", "add", PROJECT, roll_flag, "production")
    done = flagtui(*add, "--constraint", "userId IN u-1", "--yes")
    assert done.code == 0, done.err
    assert flagtui("feature", "enable", PROJECT, roll_flag, "production", "--yes").code == 0
    expected = [
        ("feature-strategy-add", "production"),
        ("feature-environment-enabled", "production"),
    ]
    assert wait_for_flag_events(admin, roll_flag, mark, expected) == expected
    [strategy] = strategies(flagtui, roll_flag)
    [constraint] = strategy["constraints"]
    assert (constraint["contextName"], constraint["operator"], constraint["values"]) == (
        "userId",
        "IN",
        ["u-1"],
    )
    production.wait_for_revision(flag_events_since(admin, roll_flag, mark)[-1]["id"])
    assert production.evaluate(roll_flag, {"userId": "u-1"}) is True
    assert production.evaluate(roll_flag, {"userId": "u-2"}) is False
    assert playground(admin, roll_flag, "u-1") is True
    assert playground(admin, roll_flag, "u-2") is False


def test_bad_input_is_refused_naming_the_field_and_nothing_is_sent(flagtui, admin, roll_flag):
    mark = newest_event_id(admin)
    add = ("feature", "strategy", "add", PROJECT, roll_flag, "production", "--yes")
    weights = ("--variant", "a=60%", "--variant", "b=30%")
    cases = [
        (("--rollout", "101"), "--rollout: a whole percentage from 0 to 100"),
        (weights, "variants.weight: the weights add up to 900"),
        (("--constraint", "appName SEMVER_GT abc"), "constraints[0].value: 'abc' is not"),
        (("--segment", "beta"), "segments[0]: no segment 'beta'"),
    ]
    for options, said in cases:
        result = flagtui(*add, *options)
        assert result.code == 2, (options, result.err)
        error = json.loads(result.err.strip().splitlines()[-1])["error"]
        assert error["kind"] == "invalid-argument"
        assert error["message"].startswith(said), error
    assert strategies(flagtui, roll_flag) == []
    assert flag_event_types_since(admin, roll_flag, mark) == []


def test_order_disable_and_remove_and_their_events(flagtui, admin, roll_flag):
    add = ("feature", "strategy", "add", PROJECT, roll_flag, "production", "--yes")
    assert flagtui(*add, "--rollout", "50", "--title", "half").code == 0
    assert flagtui(*add, "--type", "default").code == 0
    assert flagtui("feature", "enable", PROJECT, roll_flag, "production", "--yes").code == 0
    first, second = (s["id"] for s in strategies(flagtui, roll_flag))

    mark = newest_event_id(admin)
    target = (PROJECT, roll_flag, "production")
    assert flagtui("feature", "strategy", "order", *target, second, "--yes").code == 0
    assert [s["id"] for s in strategies(flagtui, roll_flag)] == [second, first]
    assert flagtui("feature", "strategy", "disable", *target, first, "--yes").code == 0
    assert flagtui("feature", "strategy", "remove", *target, second, "--yes").code == 0
    # the one left is disabled: Unleash switches production off
    expected = [
        ("strategy-order-changed", "production"),
        ("feature-strategy-update", "production"),
        ("feature-environment-disabled", "production"),
        ("feature-strategy-remove", "production"),
    ]
    seen = wait_for_flag_events(admin, roll_flag, mark, expected)
    assert sorted(seen) == sorted(expected), seen
    again = flagtui("feature", "strategy", "disable", *target, first, "--yes")
    assert again.code == 0 and json.loads(again.out)["done"] is None

    shown = flagtui("feature", "show", PROJECT, roll_flag, "-o", "table")
    assert shown.code == 0, shown.err
    lines = shown.out.splitlines()
    at = lines.index("rollout in production (off):")
    assert lines[at + 1].endswith(
        f"flexibleRollout “half” 50 % by default, group {roll_flag} [disabled]"
    )


def test_environment_variants_of_a_new_flag_are_not_supported(flagtui, admin, roll_flag):
    mark = newest_event_id(admin)
    result = flagtui(
        "feature", "variants", "set", PROJECT, roll_flag, "production", "--variant", "a", "--yes"
    )
    assert result.code == 5, result.err
    assert flag_event_types_since(admin, roll_flag, mark) == []


def test_a_taken_name_is_refused_by_the_servers_name_check(flagtui, roll_flag):
    again = flagtui("feature", "create", PROJECT, roll_flag)
    assert again.code == 2
    error = json.loads(again.err.strip().splitlines()[-1])["error"]
    assert (error["name"], error["path"]) == ("NameExistsError", "/api/admin/features/validate")
