"""`flagtui env remove`: golden JSON, a dry run (no confirmation needed), `--yes` off a terminal."""

from __future__ import annotations

from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

ARGV = ("env", "remove", "default", "development", "--yes")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "env-remove", *ARGV)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *ARGV)


def test_dry_run_of_a_destructive_command_needs_no_confirmation(run, server):
    result = run("env", "remove", "default", "qa", "--dry-run", "-o", "table")
    assert result.code == 0
    assert "would send DELETE /api/admin/projects/default/environments/qa" in result.out
    assert "nothing was sent" in result.out
    assert "qa" in [
        e["name"]
        for e in server.get("/api/admin/environments/project/default").json()["environments"]
    ]


def environments(server) -> list[str]:
    answer = server.get("/api/admin/environments/project/default").json()
    return [e["name"] for e in answer["environments"] if e["visible"]]


def test_env_remove_needs_yes_when_not_on_a_terminal(run, server):
    result = run("env", "remove", "default", "development")
    assert result.code == 2
    assert result.error["kind"] == "not-confirmed"
    assert "needs --yes" in result.error["message"]
    assert "development" in environments(server)
    assert run("env", "remove", "default", "development", "--yes").code == 0
    assert "development" not in environments(server)
