"""Golden JSON of every write's answer (piped, so JSON) and of a dry run, and of `cr show`, on
the demo sandbox: the issue asks for one golden output per command. What each write changed
on the server is checked in test_writes.py and test_env_writes.py."""

from __future__ import annotations

import pytest

from .golden import assert_golden

COMMANDS = {
    "cr-show": ["cr", "show", "platform", "43"],
    "feature-patch": ["feature", "patch", "default", "admin-async-emails", "--set", "stale=true"],
    "feature-patch-dry-run": [
        "feature",
        "patch",
        "default",
        "admin-async-emails",
        "--set",
        "description=x",
        "--dry-run",
    ],
    "feature-uncomplete": ["feature", "uncomplete", "platform", "db-batched-dashboard"],
    "feature-enable": ["feature", "enable", "default", "admin-async-emails", "development"],
    "env-remove": ["env", "remove", "default", "development", "--yes"],
    "env-link": ["env", "link", "default", "qa"],
    "access-grant": ["access", "grant", "default", "--role", "6", "--user", "3"],
    "type-lifetime": ["type", "lifetime", "release", "12"],
    "cr-delete": ["cr", "delete", "platform", "4", "--yes"],
    "integration-disable": ["integration", "disable", "2", "--yes"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_write_prints_its_answer_as_json_when_piped(run, name):
    result = run(*COMMANDS[name])
    assert result.code == 0, result.err
    assert result.err == ""
    assert_golden(name, result.json)
