"""`flagtui env link`: golden JSON, a dry run, the project's environments afterwards; linked
twice (409)."""

from __future__ import annotations

from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

ARGV = ("env", "link", "default", "qa")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "env-link", *ARGV)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *ARGV)


def test_env_link(run, server):
    assert run("env", "remove", "default", "production", "--yes").code == 0
    result = run("env", "link", "default", "production")
    assert result.code == 0, result.err
    assert result.json == {
        "done": "project-environment-added",
        "project": "default",
        "environment": "production",
    }
    envs = server.get("/api/admin/environments/project/default").json()["environments"]
    assert {e["name"]: e["visible"] for e in envs}["production"] is True
    again = run("env", "link", "default", "production")
    assert again.code == 2  # 409: already linked
    assert again.error["message"].endswith("default already has the environment production enabled")
