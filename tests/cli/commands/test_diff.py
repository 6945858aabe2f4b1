"""`flagtui diff`: two sandboxes made from the same data, then a known set of differences seeded
into one (a flag only there, a type, an environment switched, a rollout percentage, a variant);
the command lists exactly those. Environment against environment on one server too."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from flagtui.config import store_token
from flagtui.sandbox import SandboxServer
from testkit.drift_seed import PROJECT, seed_differences


@pytest.fixture
def prod(sandbox_template: Path, tmp_path: Path) -> Iterator[SandboxServer]:
    db = tmp_path / "prod.db"
    shutil.copyfile(sandbox_template, db)
    with SandboxServer(db) as server:
        yield server


@pytest.fixture
def two_profiles(cli_env: Path, monkeypatch, sandbox, prod) -> None:
    monkeypatch.delenv("UNLEASH_URL")
    monkeypatch.delenv("UNLEASH_API_TOKEN")
    (cli_env / "config.toml").write_text(
        f'default_profile = "staging"\n[profiles.staging]\nurl = "{sandbox.url}"\n'
        f'[profiles.prod]\nurl = "{prod.url}"\n'
    )
    store_token("staging", sandbox.admin_token)
    store_token("prod", prod.admin_token)


def test_two_servers_differ_exactly_where_they_were_made_to(run, two_profiles, prod):
    same = run("diff", "-P", "staging", "-P", "prod", "--project", PROJECT, "-o", "json")
    assert same.code == 0, same.err
    assert same.json == []  # copies of one database: nothing differs yet
    seeded = seed_differences(prod)
    result = run("diff", "-P", "staging", "-P", "prod", "--project", PROJECT, "-o", "json")
    assert result.code == 0, result.err
    assert {(row["featureName"], row["what"]) for row in result.json} == seeded
    present = next(row for row in result.json if row["what"] == "present")
    assert (present["staging"], present["prod"]) == (True, False)
    rollout = next(row for row in result.json if row["what"] == "strategies in production")
    added = [s for s in rollout["prod"] if s not in rollout["staging"]]
    assert added and added[0]["parameters"]["rollout"] == "37"


def test_two_environments_of_one_server(run, two_profiles, sandbox):
    result = run(
        "diff", "--env", "development", "--env", "production", "--project", PROJECT, "-o", "json"
    )
    assert result.code == 0, result.err
    http = httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})
    expected = set()
    for flag in http.get(f"/api/admin/projects/{PROJECT}/features").json()["features"]:
        envs = {e["name"]: e["enabled"] for e in flag["environments"]}
        if envs.get("development") != envs.get("production"):
            expected.add(flag["name"])
    enabled_rows = {row["featureName"] for row in result.json if row["what"] == "enabled"}
    assert enabled_rows == expected and expected  # the demo has flags on in one, off in the other


def test_one_side_is_asked_for_twice_or_not_at_all(run, two_profiles):
    result = run("diff", "-P", "staging", "-o", "json")
    assert result.code == 2 and "-P twice" in result.err
