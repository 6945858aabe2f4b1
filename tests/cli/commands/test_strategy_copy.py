"""`flagtui feature strategy copy`: the strategies added in the target environment as the web
UI's "Copy to environment" adds them, the preview of who gets the flag there, production's
question, a dry run printing every request; bad input refused with nothing sent."""

from __future__ import annotations

import httpx

from ..conftest import event_count
from .helpers import PROJECT, assert_piped_golden

FEATURES = f"/api/admin/projects/{PROJECT}/features"
COPY = ("feature", "strategy", "copy", PROJECT)


def two_rollouts(server: httpx.Client, name: str) -> list[dict]:
    """A flag with two strategies in development, and production on (with the gradual rollout
    to everyone Unleash adds when an environment without strategies is switched on)."""
    assert server.post(FEATURES, json={"name": name}).status_code == 201
    path = f"{FEATURES}/{name}/environments/development/strategies"
    for rollout in ("30", "50"):
        body = {
            "name": "flexibleRollout",
            "parameters": {"rollout": rollout, "groupId": name},
            "constraints": [{"contextName": "appName", "operator": "IN", "values": ["web"]}],
        }
        assert server.post(path, json=body).status_code == 200
    assert server.post(f"{FEATURES}/{name}/environments/production/on").status_code == 200
    return list(server.get(path).json())


def strategies(server: httpx.Client, name: str, env: str) -> list[dict]:
    return list(server.get(f"{FEATURES}/{name}/environments/{env}/strategies").json())


def test_prints_its_answer_as_json_when_piped(run):
    argv = (*COPY, "admin-async-emails", "--from-env", "development", "--to-env", "production")
    assert_piped_golden(run, "feature-strategy-copy", *argv, "--dry-run")  # ids are random


def test_copies_every_strategy_after_the_target_ones_with_its_preview(run, server):
    source = two_rollouts(server, "copy-all")
    there = [s["id"] for s in strategies(server, "copy-all", "production")]
    result = run(*COPY, "copy-all", "--from-env", "development", "--to-env", "production",
                 "--yes", "-o", "json")  # fmt: skip
    assert result.code == 0, result.err
    answer = result.json
    preview = answer.pop("preview")
    assert preview["users"] == 10_000
    after = strategies(server, "copy-all", "production")
    assert [s["id"] for s in after[: len(there)]] == there  # nothing of the target's replaced
    copied = after[len(there) :]
    assert answer == {
        "done": "feature-strategy-add", "project": PROJECT, "featureName": "copy-all",
        "environment": "production", "fromEnvironment": "development",
        "strategyIds": [s["id"] for s in copied],
    }  # fmt: skip
    keep = ("name", "parameters", "constraints")
    assert [{k: s[k] for k in keep} for s in copied] == [{k: s[k] for k in keep} for s in source]
    assert {s["id"] for s in copied}.isdisjoint(s["id"] for s in source)
    newest = server.get("/api/admin/search/events", params={"feature": "IS:copy-all"}).json()
    assert [e["type"] for e in newest["events"][:2]] == ["feature-strategy-add"] * 2
    assert {e["environment"] for e in newest["events"][:2]} == {"production"}
    # before: production on with a rollout to everyone; after: the same, as SDKs evaluate
    assert preview["before"] == preview["after"] == 10_000


def test_copies_one_strategy_by_the_start_of_its_id(run, server):
    source = two_rollouts(server, "copy-one")
    key = source[1]["id"][:8]
    there = len(strategies(server, "copy-one", "production"))
    only = run(*COPY, "copy-one", "--from-env", "development", "--to-env", "production",
               "--strategy", key, "--yes", "-o", "json")  # fmt: skip
    assert only.code == 0, only.err
    (copied,) = strategies(server, "copy-one", "production")[there:]
    assert copied["parameters"]["rollout"] == "50"
    assert only.json["strategyIds"] == [copied["id"]]


def test_a_dry_run_prints_every_request_and_sends_nothing(run, server):
    two_rollouts(server, "copy-dry")
    there = strategies(server, "copy-dry", "production")
    before = event_count(server)
    result = run(*COPY, "copy-dry", "--from-env", "development", "--to-env", "production",
                 "--dry-run", "-o", "json")  # fmt: skip
    assert result.code == 0, result.err
    rows = result.json
    assert [(r["dryRun"], r["method"]) for r in rows] == [(True, "POST")] * 2
    assert {r["path"] for r in rows} == {f"{FEATURES}/copy-dry/environments/production/strategies"}
    assert [r["body"]["parameters"]["rollout"] for r in rows] == ["30", "50"]
    assert all("id" not in r["body"] for r in rows)
    assert rows[0]["preview"]["before"] == 10_000
    assert event_count(server) == before
    assert strategies(server, "copy-dry", "production") == there


def test_production_needs_yes_off_a_terminal(run, server):
    two_rollouts(server, "copy-asks")
    before = event_count(server)
    refused = run(*COPY, "copy-asks", "--from-env", "development", "--to-env", "production",
                  "-o", "json")  # fmt: skip
    assert refused.code == 2 and refused.error["kind"] == "not-confirmed"
    assert "from development in production needs --yes" in refused.error["message"]
    assert event_count(server) == before


def test_bad_input_is_refused_naming_the_option(run, server):
    two_rollouts(server, "copy-bad")
    before = event_count(server)
    same = run(*COPY, "copy-bad", "--from-env", "development", "--to-env", "development",
               "-o", "json")  # fmt: skip
    assert same.code == 2 and same.error["message"].startswith("--to-env: ")
    unknown = run(*COPY, "copy-bad", "--from-env", "development", "--to-env", "nowhere",
                  "-o", "json")  # fmt: skip
    assert unknown.code == 2 and unknown.error["message"].startswith("--to-env: ")
    no_such = run(*COPY, "copy-bad", "--from-env", "development", "--to-env", "production",
                  "--strategy", "zzzz", "--yes", "-o", "json")  # fmt: skip
    assert no_such.code == 2 and no_such.error["message"].startswith("--strategy: ")
    assert event_count(server) == before
    # to an environment that is not of type production: no question, no --yes
    back = run(*COPY, "copy-bad", "--from-env", "production", "--to-env", "development",
               "-o", "json")  # fmt: skip
    assert back.code == 0, back.err
    assert len(strategies(server, "copy-bad", "development")) == 3
