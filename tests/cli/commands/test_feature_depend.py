"""`flagtui feature depend|undepend`: golden JSON, dry runs (the preview included), refusals
before any request (each saying why), the child's dependency at the server afterwards, and a
preview that says what the server's own evaluation then gives."""

from __future__ import annotations

import httpx

from ..conftest import Run, event_count
from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

CHILD, PARENT, OTHER = "dep-child", "dep-parent", "dep-other"
DEFAULT = "/api/admin/projects/default/features"


def flags(server: httpx.Client) -> None:
    """The child on for everyone in development; the parent on for nobody there (no
    strategy that lets anyone in: a 0 % rollout)."""
    for name in (CHILD, PARENT, OTHER):
        assert server.post(DEFAULT, json={"name": name}).status_code == 201
    server.post(f"{DEFAULT}/{CHILD}/environments/development/on")
    parameters = {"rollout": "0", "stickiness": "default", "groupId": PARENT}
    strategy = {"name": "flexibleRollout", "parameters": parameters}
    server.post(f"{DEFAULT}/{PARENT}/environments/development/strategies", json=strategy)
    server.post(f"{DEFAULT}/{PARENT}/environments/development/on")


def dependencies(server: httpx.Client, name: str) -> list[dict]:
    return list(server.get(f"{DEFAULT}/{name}").json()["dependencies"])


def test_prints_its_answer_as_json_when_piped(run: Run, server: httpx.Client) -> None:
    flags(server)
    assert_piped_golden(run, "feature-depend", "feature", "depend", "default", CHILD, PARENT)
    assert_piped_golden(run, "feature-undepend", "feature", "undepend", "default", CHILD)


def test_dry_runs_send_nothing_and_carry_the_preview(run: Run, server: httpx.Client) -> None:
    flags(server)
    argv = ("feature", "depend", "default", CHILD, PARENT)
    shown = run(*argv, "--dry-run")
    assert shown.json["body"] == {"feature": PARENT, "enabled": True}
    assert shown.json["preview"]["development"]["before"] == 10_000
    assert shown.json["preview"]["development"]["after"] == 0
    assert_dry_run_sends_nothing(run, server, *argv)
    assert_dry_run_sends_nothing(run, server, "feature", "undepend", "default", CHILD)


def test_the_preview_is_what_the_server_then_evaluates(run: Run, server: httpx.Client) -> None:
    flags(server)
    result = run("feature", "depend", "default", CHILD, PARENT, "--disabled")
    assert result.code == 0, result.err
    assert result.json["dependencies"] == [{"feature": PARENT, "enabled": False, "variants": []}]
    assert dependencies(server, CHILD) == [{"feature": PARENT, "enabled": False, "variants": []}]
    preview = result.json["preview"]["development"]
    assert (preview["before"], preview["after"]) == (10_000, 10_000)  # the parent is off for all
    body = {"environment": "development", "projects": ["default"],
            "context": {"appName": "flagtui-playground", "userId": "u-7"}}  # fmt: skip
    answer = server.post("/api/admin/playground", json=body).json()["features"]
    assert [f["isEnabled"] for f in answer if f["name"] == CHILD] == [True]
    enabled = run("feature", "depend", "default", CHILD, PARENT)  # replaces it: on only if on
    assert enabled.json["preview"]["development"]["after"] == 0
    answer = server.post("/api/admin/playground", json=body).json()["features"]
    assert [f["isEnabled"] for f in answer if f["name"] == CHILD] == [False]


def test_what_unleash_refuses_is_refused_first_saying_why(run: Run, server: httpx.Client) -> None:
    flags(server)
    assert run("feature", "depend", "default", CHILD, PARENT).code == 0
    before = event_count(server)
    said = {
        (OTHER, CHILD): "PARENT: a flag with no parent of its own (dep-child depends on",
        (PARENT, OTHER): "CHILD: a flag no other flag depends on (dep-child depend on",
        (OTHER, OTHER): "PARENT: another flag: a flag cannot depend on itself",
        (OTHER, "no-such-flag"): "PARENT: a live flag of project default (no flag no-such-flag",
    }
    for (child, parent), start in said.items():
        refused = run("feature", "depend", "default", child, parent)
        assert refused.code == 2 and refused.error["message"].startswith(start), refused.err
    variant = run("feature", "depend", "default", OTHER, PARENT, "--disabled", "--variant", "a")
    assert variant.code == 2 and variant.error["message"].startswith("--variant: only with")
    again = run("feature", "depend", "default", CHILD, PARENT)
    assert again.code == 0 and again.json["done"] is None
    assert event_count(server) == before


def test_undepend_removes_it_once(run: Run, server: httpx.Client) -> None:
    flags(server)
    assert run("feature", "depend", "default", CHILD, PARENT).code == 0
    wrong = run("feature", "undepend", "default", CHILD, OTHER)
    assert wrong.code == 2 and wrong.error["message"].startswith("PARENT: the flag dep-child")
    result = run("feature", "undepend", "default", CHILD, PARENT)
    assert result.code == 0 and result.json["done"] == "feature-dependency-removed"
    assert result.json["preview"]["development"]["after"] == 10_000
    assert dependencies(server, CHILD) == []
    none = run("feature", "undepend", "default", CHILD)
    assert none.code == 0 and none.json["unchanged"] == "a child of no flag"
