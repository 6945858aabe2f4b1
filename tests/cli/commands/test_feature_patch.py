"""`flagtui feature patch`: golden JSON of a patch and of a dry run; `--set` and `--json-patch`
(a file or stdin) read back from the server; a bad patch, and the patches real Unleash accepts
but the admin does not mean (archived, a type typo, a strategy), refused before sending.
JSON that cannot be sent: tests/cli/test_local_input_errors.py."""

from __future__ import annotations

import io
import json

import pytest

from ..conftest import event_count
from .helpers import PROJECT, a_live_flag, assert_dry_run_sends_nothing, assert_piped_golden

FLAG = "/api/admin/projects/default/features/admin-async-emails"
STALE = ("feature", "patch", "default", "admin-async-emails", "--set", "stale=true")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "feature-patch", *STALE)


def test_a_dry_runs_answer_as_json_when_piped(run):
    argv = ("feature", "patch", "default", "admin-async-emails", "--set", "description=x")
    assert_piped_golden(run, "feature-patch-dry-run", *argv, "--dry-run")


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *STALE)


def test_feature_patch_with_set(run, server):
    result = run(
        "feature",
        "patch",
        "default",
        "admin-async-emails",
        "--set",
        "description=from the shell",
        "--set",
        "impressionData=true",
    )
    assert result.code == 0, result.err
    assert result.json["description"] == "from the shell"
    flag = server.get(FLAG).json()
    assert (flag["description"], flag["impressionData"]) == ("from the shell", True)


def test_feature_patch_with_a_json_patch_on_stdin(run, server, monkeypatch):
    ops = [{"op": "replace", "path": "/description", "value": "piped in"}]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(ops)))
    result = run("feature", "patch", "default", "admin-async-emails", "--json-patch", "-")
    assert result.code == 0, result.err
    assert server.get(FLAG).json()["description"] == "piped in"


def test_feature_patch_with_a_json_patch_file(run, server, tmp_path):
    path = tmp_path / "ops.json"
    path.write_text(json.dumps([{"op": "replace", "path": "/stale", "value": True}]))
    assert (
        run("feature", "patch", "default", "admin-async-emails", "--json-patch", str(path)).code
        == 0
    )
    assert server.get(FLAG).json()["stale"] is True


def test_a_bad_patch_is_refused_naming_the_field_before_sending(run, server, monkeypatch):
    before = event_count(server)
    monkeypatch.setattr("sys.stdin", io.StringIO('[{"op": "rename", "path": "/description"}]'))
    refused = run("feature", "patch", "default", "admin-async-emails", "--json-patch", "-")
    assert refused.code == 2
    assert refused.error["kind"] == "invalid-argument"
    assert refused.error["message"] == "patch[0].op: one of add, remove, replace, copy, move"
    monkeypatch.setattr("sys.stdin", io.StringIO("not json"))
    result = run("feature", "patch", "default", "admin-async-emails", "--json-patch", "-")
    assert result.code == 2
    assert result.error["kind"] == "usage"
    assert result.error["message"].startswith("--json-patch -: not valid JSON")
    assert event_count(server) == before


def test_dry_run_prints_the_request_and_sends_nothing(run, server):
    before = (event_count(server), server.get(FLAG).json()["description"])
    result = run(
        "feature", "patch", "default", "admin-async-emails", "--set", "description=x", "--dry-run"
    )
    assert result.code == 0, result.err
    assert result.json == {
        "dryRun": True,
        "method": "PATCH",
        "path": FLAG,
        "body": [{"op": "replace", "path": "/description", "value": "x"}],
    }
    assert (event_count(server), server.get(FLAG).json()["description"]) == before


@pytest.mark.parametrize("value", ["true", "false"])
def test_a_patch_of_archived_points_to_archive_and_revive(run, server, value):
    name = a_live_flag(server, 2)
    before = event_count(server)
    refused = run("feature", "patch", PROJECT, name, "--set", f"archived={value}", "-o", "json")
    assert refused.code == 2 and refused.error["kind"] == "invalid-argument"
    assert "flagtui feature archive" in refused.error["message"]
    assert event_count(server) == before


def test_a_type_typo_is_refused_naming_the_valid_types(run, server):
    name = a_live_flag(server, 2)
    before = (event_count(server), server.get(f"/api/admin/projects/{PROJECT}/features/{name}"))
    typo = run("feature", "patch", PROJECT, name, "--set", "type=relase", "-o", "json")
    assert typo.code == 2 and typo.error["kind"] == "invalid-argument"
    assert "did you mean release?" in typo.error["message"]
    after = server.get(f"/api/admin/projects/{PROJECT}/features/{name}")
    assert (event_count(server), after.json()) == (before[0], before[1].json())


def test_a_patch_of_a_strategy_is_refused_with_a_pointer(run, server):
    name = a_live_flag(server, 2)
    path = "environments/0/strategies/0/parameters/rollout=50"
    refused = run("feature", "patch", PROJECT, name, "--set", path, "-o", "json")
    assert refused.code == 2 and "flagtui feature enable|disable" in refused.error["message"]
