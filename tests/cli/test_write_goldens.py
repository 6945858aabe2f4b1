"""Golden JSON of every write's answer (piped, so JSON) and of a dry run, and of `cr show`, on
the demo sandbox: the issue asks for one golden output per command. What each write changed
on the server is checked in test_writes.py and test_env_writes.py; here, that a dry run of
each records nothing."""

from __future__ import annotations

import pytest

from .commands.golden import assert_golden
from .conftest import event_count

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
    "feature-disable": ["feature", "disable", "default", "admin-async-emails", "development"],
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


WRITES = sorted(set(COMMANDS) - {"cr-show", "feature-patch-dry-run"})


@pytest.mark.parametrize("name", WRITES)
def test_each_write_dry_run_sends_nothing(run, server, name):
    """Checked at the server: no event recorded; then the write itself records one (so the
    count would have seen it)."""
    before = event_count(server)
    result = run(*COMMANDS[name], "--dry-run")
    assert result.code == 0, result.err
    assert result.json["dryRun"] is True
    assert event_count(server) == before
    assert run(*COMMANDS[name]).code == 0
    assert event_count(server) > before
