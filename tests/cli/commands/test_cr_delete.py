"""`flagtui cr delete`: golden JSON, a dry run, the change request gone afterwards."""

from __future__ import annotations

from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

ARGV = ("cr", "delete", "platform", "4", "--yes")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "cr-delete", *ARGV)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *ARGV)


def test_cr_delete(run, server):
    assert server.get("/api/admin/projects/platform/change-requests/4").status_code == 200
    result = run("cr", "delete", "platform", "4", "--yes")
    assert result.code == 0, result.err
    assert server.get("/api/admin/projects/platform/change-requests/4").status_code == 404
