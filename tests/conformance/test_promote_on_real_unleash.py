"""`flagtui promote` from the sandbox to a real Unleash in one plan: 100 flags of this run's own
names in three sandbox projects (emptied of the demo's flags first; their environments cut to
development and production, the two of real Unleash OSS), with strategies, constraints and
strategy variants, land in `default` (real OSS has no other project); `flagtui diff
--rewrite-project default`, naming the flags, then finds no difference. The flags are archived
afterwards, never deleted (see the conftest)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from flagtui.cli import main
from flagtui.config import store_token

pytestmark = pytest.mark.unleash
PROJECTS = ("data-pipeline", "search", "growth")  # of the sandbox's demo data
ENVS = ("development", "production")
FLAGS = 100


def _strategies(name: str, i: int) -> list[dict]:
    rollout = {"name": "flexibleRollout",
               "parameters": {"rollout": str(10 + i % 90), "stickiness": "default",
                              "groupId": name}}  # fmt: skip
    if i % 3 == 0:
        rollout["constraints"] = [{"contextName": "userId", "operator": "IN",
                                   "values": [f"u-{i}", f"u-{i + 1}"]}]  # fmt: skip
    if i % 4 == 0:
        rollout["variants"] = [
            {"name": "blue", "weight": 500, "weightType": "variable", "stickiness": "default",
             "payload": {"type": "string", "value": f"blue-{i}"}},
            {"name": "green", "weight": 200, "weightType": "fix", "stickiness": "default"},
        ]  # fmt: skip
    if i % 5 == 0:
        return [rollout, {"name": "default", "title": "everyone", "disabled": i % 10 == 0}]
    return [rollout]


def _emptied(http: httpx.Client) -> None:
    """The projects without the demo's flags and with only the environments promoted."""
    for project in PROJECTS:
        base = f"/api/admin/projects/{project}/features"
        for flag in http.get(base).json()["features"]:
            http.delete(f"{base}/{flag['name']}").raise_for_status()
        for env in http.get(f"/api/admin/environments/project/{project}").json()["environments"]:
            if env["visible"] and env["name"] not in ENVS:
                http.delete(f"/api/admin/projects/{project}/environments/{env['name']}")


def _made(http: httpx.Client, names: list[str]) -> None:
    for i, name in enumerate(names):
        base = f"/api/admin/projects/{PROJECTS[i % len(PROJECTS)]}/features"
        made = http.post(base, json={"name": name, "type": "release"})
        assert made.status_code < 300, made.text
        env = ENVS[i % 2]
        for body in _strategies(name, i):
            added = http.post(f"{base}/{name}/environments/{env}/strategies", json=body)
            assert added.status_code < 300, added.text
        if i % 7:
            http.post(f"{base}/{name}/environments/{env}/on").raise_for_status()


@pytest.fixture
def names(real_unleash) -> Iterator[list[str]]:
    run = uuid.uuid4().hex[:8]
    made = [f"promote-{run}-{i:03}" for i in range(FLAGS)]
    yield made
    with httpx.Client(base_url=real_unleash.url, headers={"Authorization": real_unleash.token},
                      timeout=30) as http:  # fmt: skip
        for name in made:  # archived, not deleted
            http.delete(f"/api/admin/projects/default/features/{name}")


@pytest.fixture
def flagtui(tmp_path: Path, monkeypatch, capsys, sandbox, real_unleash):
    """flagtui with two profiles: `sandbox` (the source) and `real`."""
    monkeypatch.delenv("UNLEASH_URL", raising=False)
    monkeypatch.delenv("UNLEASH_API_TOKEN", raising=False)
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    (tmp_path / "config.toml").write_text(
        f'default_profile = "sandbox"\n[profiles.sandbox]\nurl = "{sandbox.url}"\n'
        f'[profiles.real]\nurl = "{real_unleash.url}"\n'
    )
    store_token("sandbox", sandbox.admin_token)
    store_token("real", real_unleash.token)

    def invoke(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


def test_100_flags_of_3_projects_promoted_in_one_plan_leave_no_difference(flagtui, names, sandbox):
    with httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token},
                      timeout=30) as http:  # fmt: skip
        _emptied(http)
        _made(http, names)
    projects = [word for project in PROJECTS for word in ("--project", project)]
    envs = [word for env in ENVS for word in ("--env", env)]
    code, out, err = flagtui("promote", "-P", "sandbox", "-P", "real", *projects, *envs,
                             "--rewrite-project", "default", "--yes", "-o", "json")  # fmt: skip
    assert code == 0, err
    done = json.loads(out)["apply"]
    assert done["complete"] and done["notApplied"] == 0, done
    assert sorted(b["name"] for b in done["readBack"]) == names
    assert {b["state"] for b in done["readBack"]} == {"as the file"}
    diff = ("diff", "-P", "sandbox", "-P", "real", *names, "-o", "json")
    code, out, err = flagtui(*diff, "--rewrite-project", "default")
    assert code == 0, err
    assert json.loads(out) == []
    code, out, err = flagtui(*diff)  # without it: every flag on one side only
    assert code == 0, err
    assert len(json.loads(out)) == 2 * FLAGS
