"""A flag switched on where it has no enabled strategy gets the project environment's default
strategy (a 30 % rollout here), not Unleash's 100 %: `feature enable` previews that share, and
the users it names are those the server then gives the flag (its client API fed to the SDKs'
engine, as an SDK is fed)."""

from __future__ import annotations

import secrets
from typing import Any

from served_share import served

from flagtui.preview.share import PLAN_USERS

PROJECT, ENV = "default", "development"
CONTEXT = {"appName": "flagtui-playground"}
THIRTY = {
    "name": "flexibleRollout",
    "constraints": [],
    "parameters": {"rollout": "30", "stickiness": "default", "groupId": ""},
}


def _flag(server: Any) -> str:
    name = f"switch-default-{secrets.token_hex(3)}"
    made = server.post(f"/api/admin/projects/{PROJECT}/features", json={"name": name})
    assert made.status_code in (200, 201), made.text
    return name


def _thirty_percent_default(server: Any) -> None:
    route = f"/api/admin/projects/{PROJECT}/environments/{ENV}/default-strategy"
    answer = server.post(route, json=THIRTY)
    assert answer.status_code == 200, answer.text


def test_enable_previews_the_projects_default_strategy_and_the_server_agrees(run, sandbox, server):
    _thirty_percent_default(server)
    name = _flag(server)
    argv = ("feature", "enable", PROJECT, name, ENV)
    dry = run(*argv, "--dry-run", "-o", "json")
    assert dry.code == 0, dry.err
    preview = dry.json["preview"]
    assert preview["before"] == 0 and 2_700 < preview["after"] < 3_300, preview
    assert served(sandbox, name, CONTEXT, environment=ENV)[0] == 0  # nothing was sent
    done = run(*argv, "--yes", "-o", "json")
    assert done.code == 0, done.err
    assert done.json["preview"] == preview
    on, _ = served(sandbox, name, CONTEXT, environment=ENV)
    assert on == preview["after"]


def test_the_bulk_switch_previews_it_too(run, sandbox, server):
    _thirty_percent_default(server)
    names = [_flag(server), _flag(server)]
    argv = ("feature", "enable", PROJECT, *names, ENV)
    table = run(*argv, "--dry-run", "-o", "table")
    assert table.code == 0, table.err
    assert run(*argv, "--yes").code == 0
    for name in names:
        on, _ = served(sandbox, name, CONTEXT, users=PLAN_USERS, environment=ENV)
        assert 240 < on < 360
        said = f"preview of {name}: 0 → {on:,} of {PLAN_USERS:,}"
        assert said in table.out + table.err, table
