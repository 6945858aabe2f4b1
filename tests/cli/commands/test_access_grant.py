"""`flagtui access grant`: golden JSON, a dry run, the project's access afterwards."""

from __future__ import annotations

from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

ARGV = ("access", "grant", "default", "--role", "6", "--user", "3")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "access-grant", *ARGV)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *ARGV)


def test_access_grant(run, server):
    result = run("access", "grant", "default", "--role", "6", "--user", "3", "--group", "6")
    assert result.code == 0, result.err
    access = server.get("/api/admin/projects/default/access").json()
    assert 6 in next(u for u in access["users"] if u["id"] == 3)["roles"]
    assert 6 in next(g for g in access["groups"] if g["id"] == 6)["roles"]
