"""`flagtui promote`: flags of three projects promoted from one sandbox to another into one
project (--rewrite-project), after which the source's export, renamed, plans as nothing to do
on the target, and `flagtui diff --rewrite-project` (the flags named) finds nothing but a change
made after it; one project promoted between two copies of one server, after which `flagtui
diff` finds nothing (and --dry-run before it sent nothing); one environment promoted to
another of one server; a read-only target refused before any request."""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import tomli_w

from flagtui.config import store_token
from flagtui.sandbox import SandboxServer
from flagtui.sandbox.create import create_database
from testkit.drift_seed import PROJECT, seed_differences
from testkit.promotable import promotable

from ..conftest import event_count

PROJECTS = ("data-pipeline", "search", "growth")


def _http(server: SandboxServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"Authorization": server.admin_token},
                        timeout=30)  # fmt: skip


def _catalog_copied(source: SandboxServer, target: SandboxServer) -> None:
    """What promote needs the target to have already (apply writes neither): the segments
    and the tag types (the hostile ones, which a name check refuses, left out)."""
    with _http(source) as a, _http(target) as b:
        for segment in a.get("/api/admin/segments").json()["segments"]:
            body = {k: segment[k] for k in ("name", "description", "constraints")
                    if segment.get(k) is not None}  # fmt: skip
            b.post("/api/admin/segments", json=body).raise_for_status()
        have = {t["name"] for t in b.get("/api/admin/tag-types").json()["tagTypes"]}
        for kind in a.get("/api/admin/tag-types").json()["tagTypes"]:
            if kind["name"] not in have:
                b.post("/api/admin/tag-types", json={"name": kind["name"]})


def _configure(cli_env: Path, monkeypatch: pytest.MonkeyPatch, **servers: SandboxServer) -> None:
    monkeypatch.delenv("UNLEASH_URL")
    monkeypatch.delenv("UNLEASH_API_TOKEN")
    text = "".join(f'[profiles.{name}]\nurl = "{s.url}"\n' for name, s in servers.items())
    (cli_env / "config.toml").write_text(f'default_profile = "staging"\n{text}'
                                         '[profiles.ro]\nurl = "http://127.0.0.1:9"\n'
                                         "read_only = true\n")  # fmt: skip
    for name, server in servers.items():
        store_token(name, server.admin_token)


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[SandboxServer]:
    create_database(tmp_path / "empty.db", size="empty")
    with SandboxServer(tmp_path / "empty.db") as server:
        yield server


@pytest.fixture
def copy(sandbox_template: Path, tmp_path: Path) -> Iterator[SandboxServer]:
    shutil.copyfile(sandbox_template, tmp_path / "copy.db")
    with SandboxServer(tmp_path / "copy.db") as server:
        yield server


def _projects(*names: str) -> list[str]:
    return [word for name in names for word in ("--project", name)]


ENVS = ("--env", "development", "--env", "production")


def test_three_projects_land_in_one_project_of_another_server(
    run, sandbox, empty, cli_env, monkeypatch, tmp_path
):
    promotable(sandbox, PROJECTS)
    _catalog_copied(sandbox, empty)
    _configure(cli_env, monkeypatch, staging=sandbox, prod=empty)
    promote = ("promote", "-P", "staging", "-P", "prod", *_projects(*PROJECTS), *ENVS,
               "--rewrite-project", "default")  # fmt: skip
    result = run(*promote, "--yes", "-o", "json")
    assert result.code == 0, result.err
    done = result.json["apply"]
    assert done["complete"] and done["notApplied"] == 0 and done["applied"] > 0
    with _http(sandbox) as a:
        expected = sorted(
            f["name"]
            for p in PROJECTS
            for f in a.get(f"/api/admin/projects/{p}/features").json()["features"]
        )
    assert len(expected) > 10, expected
    assert {b["state"] for b in done["readBack"]} == {"as the file"}, done["readBack"]
    with _http(empty) as b:
        landed = b.get("/api/admin/projects/default/features").json()["features"]
    assert sorted(f["name"] for f in landed) == expected
    # The source's own export, its projects renamed by hand, is nothing to do on the target.
    path = tmp_path / "source.toml"
    exported = run("export", "-P", "staging", *_projects(*PROJECTS), *ENVS, "-f", str(path))
    assert exported.code == 0, exported.err
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["projects"] = ["default"]
    for flag in data["flags"]:
        flag["project"] = "default"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    planned = run("plan", "-P", "prod", str(path), "-o", "json")
    assert planned.code == 0 and planned.json["changes"] is False, planned.out
    again = run(*promote, "--dry-run", "-o", "json")
    assert again.code == 0 and again.json["flags"] == [], again.out


def test_diff_compares_promoted_flags_in_the_project_they_were_rewritten_to(
    run, sandbox, empty, cli_env, monkeypatch
):
    promotable(sandbox, PROJECTS)
    _catalog_copied(sandbox, empty)
    with _http(sandbox) as a:  # the environments promoted, only: diff compares every one
        for project in PROJECTS:
            for env in a.get(f"/api/admin/environments/project/{project}").json()["environments"]:
                if env["visible"] and env["name"] not in ENVS:
                    a.delete(f"/api/admin/projects/{project}/environments/{env['name']}")
    _configure(cli_env, monkeypatch, staging=sandbox, prod=empty)
    promoted = run("promote", "-P", "staging", "-P", "prod", *_projects(*PROJECTS), *ENVS,
                   "--rewrite-project", "default", "--yes", "-o", "json")  # fmt: skip
    assert promoted.code == 0, promoted.err
    with _http(sandbox) as a:
        listed = [a.get(f"/api/admin/projects/{p}/features").json() for p in PROJECTS]
    names = [f["name"] for features in listed for f in features["features"]]
    diff = ("diff", "-P", "staging", "-P", "prod", *names, "-o", "json")
    unrewritten = run(*diff)  # keyed by (project, name): every flag on one side only
    assert unrewritten.code == 0, unrewritten.err
    assert {(r["project"], r["what"]) for r in unrewritten.json} == {
        *((p, "present") for p in PROJECTS), ("default", "present")}  # fmt: skip
    assert len(unrewritten.json) == 2 * len(names)
    same = run(*diff, "--rewrite-project", "default")
    assert same.code == 0 and same.json == [], same.out
    changed = names[0]
    with _http(empty) as b:
        b.patch(f"/api/admin/projects/default/features/{changed}",
                json=[{"op": "replace", "path": "/type", "value": "kill-switch"}]
                ).raise_for_status()  # fmt: skip
    after = run(*diff, "--rewrite-project", "default")
    assert after.code == 0, after.err
    assert [(r["project"], r["featureName"], r["what"], r["prod"]) for r in after.json] == [
        ("default", changed, "type", "kill-switch")]  # fmt: skip


def test_dry_run_sends_nothing_then_a_promotion_leaves_no_difference(
    run, sandbox, copy, cli_env, monkeypatch
):
    seeded = seed_differences(sandbox)  # the source changed; the target still as it was
    _configure(cli_env, monkeypatch, staging=sandbox, prod=copy)
    before = run("diff", "-P", "staging", "-P", "prod", "--project", PROJECT, "-o", "json")
    assert {(r["featureName"], r["what"]) for r in before.json} == seeded
    promote = ("promote", "-P", "staging", "-P", "prod", "--project", PROJECT, "--prune")
    with _http(copy) as b:
        events = event_count(b)
        dry = run(*promote, "--dry-run", "-o", "json")
        assert dry.code == 1 and dry.json["changes"] is True, dry.err
        assert {f["name"] for f in dry.json["flags"]} == {name for name, _ in seeded}
        assert event_count(b) == events  # nothing sent
        unasked = run(*promote)  # not a terminal, no --yes
        assert unasked.code == 2 and "nothing was sent" in unasked.err
        assert event_count(b) == events
    result = run(*promote, "--yes", "-o", "json")
    assert result.code == 0, result.err
    assert {b["state"] for b in result.json["apply"]["readBack"]} == {"as the file"}
    after = run("diff", "-P", "staging", "-P", "prod", "--project", PROJECT, "-o", "json")
    assert after.code == 0 and after.json == [], after.out


def test_one_environment_promoted_to_another_of_one_server(run, sandbox, cli_env, monkeypatch):
    project = "search"
    promotable(sandbox, (project,))
    _configure(cli_env, monkeypatch, staging=sandbox)
    sides = ("--env", "development", "--env", "production", "--project", project)
    before = run("diff", *sides, "-o", "json")
    assert before.code == 0 and before.json, before.err  # the demo's two environments differ
    result = run("promote", *sides, "--yes", "-o", "json")
    assert result.code == 0, result.err
    assert result.json["plan"]["environments"] == ["production"]
    after = run("diff", *sides, "-o", "json")
    assert after.code == 0 and after.json == [], after.out


def test_a_read_only_target_is_refused_before_any_request(run, sandbox, cli_env, monkeypatch):
    _configure(cli_env, monkeypatch, staging=sandbox)
    with _http(sandbox) as a:
        events = event_count(a)
        refused = run("promote", "-P", "staging", "-P", "ro", "--project", PROJECT, "--yes",
                      "-o", "json")  # fmt: skip
        assert refused.code == 2 and refused.error["kind"] == "read-only", refused.err
        one_server = run("promote", "-P", "ro", *ENVS, "--yes", "-o", "json")
        assert one_server.code == 2 and one_server.error["kind"] == "read-only"
        assert event_count(a) == events
    asked_once = run("promote", "-P", "staging", "--project", PROJECT)
    assert asked_once.code == 2 and "-P twice" in asked_once.err
