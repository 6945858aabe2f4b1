"""The writes against the sandbox: each one's effect read back from the server; --dry-run
sends nothing; read-only profiles and missing confirmations are refused before any request."""

from __future__ import annotations

import io
import json

from flagtui.cli.parser import command_line

from .conftest import event_count

FLAG = "/api/admin/projects/default/features/admin-async-emails"


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


def test_dry_run_of_a_destructive_command_needs_no_confirmation(run, server):
    result = run("env", "remove", "default", "qa", "--dry-run", "-o", "table")
    assert result.code == 0
    assert "would send DELETE /api/admin/projects/default/environments/qa" in result.out
    assert "nothing was sent" in result.out
    assert "qa" in [
        e["name"]
        for e in server.get("/api/admin/environments/project/default").json()["environments"]
    ]


def test_feature_uncomplete(run, server):
    result = run("feature", "uncomplete", "platform", "db-batched-dashboard")
    assert result.code == 0, result.err
    assert result.json == {
        "done": "feature-uncompleted",
        "project": "platform",
        "featureName": "db-batched-dashboard",
    }
    flag = server.get("/api/admin/projects/platform/features/db-batched-dashboard").json()
    assert flag["lifecycle"]["stage"] != "completed"


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


def test_access_grant(run, server):
    result = run("access", "grant", "default", "--role", "6", "--user", "3", "--group", "6")
    assert result.code == 0, result.err
    access = server.get("/api/admin/projects/default/access").json()
    assert 6 in next(u for u in access["users"] if u["id"] == 3)["roles"]
    assert 6 in next(g for g in access["groups"] if g["id"] == 6)["roles"]


def test_type_lifetime_days_and_never(run, server):
    assert run("type", "lifetime", "release", "12").json["lifetimeDays"] == 12
    assert run("type", "lifetime", "experiment", "never").json["lifetimeDays"] is None
    types = {
        t["id"]: t["lifetimeDays"] for t in server.get("/api/admin/feature-types").json()["types"]
    }
    assert (types["release"], types["experiment"]) == (12, None)


def test_type_lifetime_out_of_range_names_the_field_and_limit(run, server):
    for days in ("2147483648", "-1", "soon"):
        result = run("type", "lifetime", "release", days, "-o", "table")
        assert result.code == 2
        assert (
            result.line == "flagtui: lifetimeDays: an integer from 0 to 2147483647, or null (never)"
        )
    types = {
        t["id"]: t["lifetimeDays"] for t in server.get("/api/admin/feature-types").json()["types"]
    }
    assert types["release"] == 40


def test_cr_delete(run, server):
    assert server.get("/api/admin/projects/platform/change-requests/4").status_code == 200
    result = run("cr", "delete", "platform", "4", "--yes")
    assert result.code == 0, result.err
    assert server.get("/api/admin/projects/platform/change-requests/4").status_code == 404


def addon(server, addon_id: int) -> dict:
    return next(a for a in server.get("/api/admin/addons").json()["addons"] if a["id"] == addon_id)


def test_integration_disable_and_enable(run, server):
    before = event_count(server)
    result = run("integration", "disable", "2", "--yes")
    assert result.code == 0, result.err
    assert result.json["enabled"] is False
    assert addon(server, 2)["enabled"] is False
    assert run("integration", "enable", "2").code == 0
    assert addon(server, 2)["enabled"] is True
    recent = server.get("/api/admin/search/events", params={"limit": 2}).json()["events"]
    assert [e["type"] for e in recent] == ["addon-config-updated"] * 2
    assert event_count(server) == before + 2


def test_integration_enable_accepts_yes_as_disable_does(run, server):
    assert run("integration", "disable", "2", "--yes").code == 0
    result = run("integration", "enable", "2", "--yes")
    assert result.code == 0, result.err
    assert addon(server, 2)["enabled"] is True


def test_integration_disable_needs_yes_when_not_on_a_terminal(run, server):
    result = run("integration", "disable", "2")
    assert result.code == 2
    assert addon(server, 2)["enabled"] is True


def test_read_only_profile_is_refused_before_any_request(run, cli_env):
    # The profile's server is a closed port and it has no token: a request, or even looking
    # for the token, would fail differently.
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    writes = (
        ["feature", "patch", "default", "x", "--set", "description=y"],
        ["feature", "uncomplete", "default", "x"],
        ["feature", "archive", "default", "x", "--yes"],
        ["feature", "revive", "default", "x"],
        ["feature", "enable", "default", "x", "production", "--yes"],
        ["feature", "disable", "default", "x", "production", "--yes"],
        ["env", "remove", "default", "qa", "--yes"],
        ["env", "link", "default", "qa"],
        ["access", "grant", "default", "--role", "4", "--user", "1"],
        ["type", "lifetime", "release", "3"],
        ["cr", "delete", "default", "1", "--yes"],
        ["integration", "enable", "2"],
        ["integration", "disable", "2", "--yes"],
    )
    assert {tuple(argv[:2]) for argv in writes} == write_commands()
    for argv in writes:
        result = run(*argv, "-P", "ro")
        assert result.code == 2, argv
        assert result.error["kind"] == "read-only"
        assert result.error["message"].startswith("Profile 'ro' is read-only:")


def write_commands() -> set[tuple[str, str]]:
    """(noun, verb) of every command that writes, from the parser itself."""
    found = set()
    for words, leaf in command_line()[1].items():
        if leaf.load().get_default("write_action"):
            noun, _, verb = words.partition(" ")
            found.add((noun, verb))
    return found


def test_integration_disable_dry_run_shows_the_record_it_would_send(run, server):
    before = event_count(server)
    result = run("integration", "disable", "1", "--dry-run")
    assert result.code == 0, result.err
    sent = result.json
    assert (sent["method"], sent["path"]) == ("PUT", "/api/admin/addons/1")
    assert sent["body"]["enabled"] is False
    assert sent["body"]["parameters"]["url"] == "*****"  # masked: the server keeps its value
    assert set(sent["body"]) <= {
        "provider",
        "enabled",
        "description",
        "parameters",
        "events",
        "projects",
        "environments",
    }
    assert addon(server, 1)["enabled"] is True
    assert event_count(server) == before
