"""`flagtui export`: the demo sandbox (strategies, constraints, segments, variants with
payloads, tags, dependencies, the hostile project) as a flags file that the published JSON
Schema accepts, byte-identical when exported twice, in the order the server evaluates, with
segments by name and every hostile text kept exactly and escaped where it would hide itself."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema_rs
import pytest

SCHEMA = Path(__file__).parents[3] / "docs" / "flags-file.schema.json"
PROJECTS = ("--project", "growth", "--project", "hostile")
ENVS = ("--env", "development", "--env", "production")


def schema_errors(data: object) -> list[str]:
    validator = jsonschema_rs.validator_for(json.loads(SCHEMA.read_text()))
    return [f"{list(e.instance_path)}: {e.message}" for e in validator.iter_errors(data)]


@pytest.fixture
def exported(run, tmp_path) -> Path:
    path = tmp_path / "flags.toml"
    result = run("export", *PROJECTS, *ENVS, "-f", str(path), "-o", "json")
    assert result.code == 0, result.err
    assert json.loads(result.err)["answer"]["flags"] > 30
    return path


def test_an_export_of_the_demo_is_valid_and_has_every_kind_of_rollout(exported):
    data = tomllib.loads(exported.read_text(encoding="utf-8"))
    assert schema_errors(data) == []
    flags = data["flags"]
    strategies = [s for f in flags for e in f["environments"].values() for s in e["strategies"]]
    assert any(s.get("constraints") for s in strategies)
    assert any(s.get("segments") for s in strategies)
    assert any(v.get("payload") for s in strategies for v in s.get("variants", []))
    assert any(f["tags"] for f in flags) and any(f["dependencies"] for f in flags)
    used = {n for s in strategies for n in s.get("segments", [])}
    assert used and used == {s["name"] for s in data["segments"]}
    assert {"userId", "tenantSize"} <= {f["name"] for f in data["contextFields"]}
    assert not any("id" in s or "sortOrder" in s or "createdAt" in s for s in strategies)


def test_a_schema_that_refuses_nothing_would_be_caught(exported):
    data = tomllib.loads(exported.read_text(encoding="utf-8"))
    data["flags"][0]["environments"]["production"]["strategies"] = [{"name": "x", "id": "1"}]
    assert schema_errors(data)  # disabled missing, id not allowed


def test_two_exports_of_an_unchanged_server_are_byte_identical(run, exported):
    again = run("export", *PROJECTS, *ENVS)  # to standard output, this time
    assert again.code == 0, again.err
    assert again.out.encode("utf-8") == exported.read_bytes()


def test_strategies_are_in_the_order_the_server_evaluates_them(run, exported, server):
    data = tomllib.loads(exported.read_text(encoding="utf-8"))
    flag = next(f for f in data["flags"]
                if len(f["environments"]["production"]["strategies"]) >= 2)  # fmt: skip
    path = f"/api/admin/projects/{flag['project']}/features/{flag['name']}"
    prod = next(e for e in server.get(path).json()["environments"] if e["name"] == "production")
    ordered = sorted(prod["strategies"], key=lambda s: s["sortOrder"])
    titles = [s.get("title") for s in ordered]
    assert [s.get("title") for s in flag["environments"]["production"]["strategies"]] == titles
    # The last one moved first on the server: the next export follows.
    moved = [ordered[-1], *ordered[:-1]]
    order = [{"id": s["id"], "sortOrder": i} for i, s in enumerate(moved)]
    answer = server.post(f"{path}/environments/production/strategies/set-sort-order", json=order)
    assert answer.status_code == 200, answer.text
    again = run("export", "--project", flag["project"], "--env", "production", flag["name"])
    assert again.code == 0, again.err
    (got,) = tomllib.loads(again.out)["flags"]
    got_titles = [s.get("title") for s in got["environments"]["production"]["strategies"]]
    assert got_titles == [s.get("title") for s in moved] != titles


def test_hostile_text_is_kept_exactly_and_nothing_hides_in_the_file(exported, server):
    text = exported.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    hostile = {f["name"]: f for f in data["flags"] if f["project"] == "hostile"}
    answer = server.get("/api/admin/projects/hostile/features/hx-escapes").json()
    assert hostile["hx-escapes"]["description"] == answer["description"]  # round trip exact
    assert "\x1b" in answer["description"] and "\u202e" in answer["description"]
    for hidden in ("\x1b", "\u202e", "\u2066", "\x9b", "\ufeff"):
        assert hidden not in text  # written as \u escapes: a reviewer's diff shows them


def test_named_flags_need_their_project_and_an_unknown_environment_is_named(run):
    result = run("export", "--env", "production", "some-flag", "-o", "json")
    assert result.code == 2 and "--project" in result.error["message"]
    result = run("export", "--project", "growth", "--env", "nope", "-o", "json")
    assert result.code == 2 and "'nope'" in result.error["message"]


def test_named_flags_only(run):
    result = run("export", "--project", "growth", "--env", "production", "trial-guided-mode")
    assert result.code == 0, result.err
    data = tomllib.loads(result.out)
    assert [f["name"] for f in data["flags"]] == ["trial-guided-mode"]
    assert data["selected"] == ["trial-guided-mode"] and schema_errors(data) == []


def test_short_tables_one_after_another_stay_tables_of_their_own():
    # tomli-w writes a short array of tables inline: after a table, it would become its key.
    from flagtui.fleet.flag_export import array_table

    segment = {"name": "s", "constraints": [{"contextName": "c", "operator": "IN"}]}
    field = {"name": "c", "stickiness": False, "legalValues": []}
    text = array_table("segments", segment) + "\n" + array_table("contextFields", field)
    assert tomllib.loads(text) == {"segments": [segment], "contextFields": [field]}
