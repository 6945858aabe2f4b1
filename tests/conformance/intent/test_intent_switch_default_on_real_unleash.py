"""A flag switched on where it has no strategy gets the project environment's default strategy
(here a 30 % rollout), not Unleash's own 100 %: `feature enable --dry-run` previews that share,
and after the real switch the official Python SDK gives the flag to exactly the users the
preview's engine names, one by one. The one project is everyone's: the default is set for the
shortest while and restored right after, as the default-strategy test restores it."""

from __future__ import annotations

import json
from typing import Any

import httpx
from real_intent import PROJECT, default_strategy_of, restore_default_strategy
from real_sdk import wait_for

from flagtui.preview.engine import Preview
from flagtui.preview.share import switched

ENV = "development"
USERS = 10_000
THIRTY = {
    "name": "flexibleRollout",
    "constraints": [],
    "parameters": {"rollout": "30", "stickiness": "default", "groupId": ""},
}


def _previewed_users(admin: httpx.Client, flag: str, default: dict[str, Any]) -> list[str]:
    """Whom the preview's engine gives the flag once switched on with `default`."""
    record = admin.get(f"/api/admin/projects/{PROJECT}/features/{flag}").json()
    preview = Preview(switched(record, ENV, True, default), ENV)
    context = {"appName": "flagtui-playground"}
    return [user for user, said in preview.answers(USERS, context) if said.enabled]


def test_enable_previews_the_default_strategy_and_the_sdk_agrees_user_by_user(
    flagtui, admin, sdk, flag
) -> None:
    before = default_strategy_of(admin, ENV)
    watch = sdk(ENV)
    url = f"/api/admin/projects/{PROJECT}/environments/{ENV}/default-strategy"
    try:
        assert admin.post(url, json=THIRTY).status_code == 200
        argv = ("feature", "enable", PROJECT, flag, ENV)
        dry = flagtui(*argv, "--dry-run", "-o", "json")
        assert dry.code == 0, dry.err
        preview = json.loads(dry.out)["preview"]
        assert preview["before"] == 0 and 2_700 < preview["after"] < 3_300, preview
        named = _previewed_users(admin, flag, THIRTY)
        assert len(named) == preview["after"]
        done = flagtui(*argv, "--yes", "-o", "json")
        assert done.code == 0, done.err
        assert json.loads(done.out)["preview"] == preview
    finally:
        restore_default_strategy(admin, ENV, before)
    assert default_strategy_of(admin, ENV) == before
    strategies = f"/api/admin/projects/{PROJECT}/features/{flag}/environments/{ENV}/strategies"
    [got] = admin.get(strategies).json()
    assert got["parameters"] == {"rollout": "30", "stickiness": "default", "groupId": flag}

    def sdk_users() -> list[str]:
        users = (f"u-{i}" for i in range(1, USERS + 1))
        return [u for u in users if watch.evaluate(flag, {"userId": u})]

    wait_for(f"the SDK's users of {flag}", sdk_users, lambda got: got == named)
