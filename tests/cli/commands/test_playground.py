"""`flagtui playground`: each flag evaluated locally with the SDKs' engine from its admin
record, beside the server's own playground answer (the sandbox's comes from the same engine,
fed by its client API: any difference is in how flagtui reads and converts the records)."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import Run

FEATURES = "/api/admin/projects/default/features"


def _titled(server: httpx.Client, title: str) -> str:
    """The default project's flag whose production strategy has `title` (demo_rollouts.py)."""
    for row in server.get(FEATURES).json()["features"][:10]:
        flag = server.get(f"{FEATURES}/{row['name']}").json()
        production = next(e for e in flag["environments"] if e["name"] == "production")
        if any(s.get("title") == title for s in production["strategies"]):
            return str(flag["name"])
    raise AssertionError(f"no demo flag titled {title!r}")


def test_one_flag_for_one_context(run: Run, server: httpx.Client) -> None:
    name = _titled(server, "A/B split")
    result = run("playground", "--env", "production", "--flag", name, "--context", "userId=u-1")
    assert result.code == 0, result.err
    [row] = result.json
    assert row["name"] == name and row["project"] == "default" and row["enabled"] is True
    assert row["variant"] in ("control", "treatment")
    assert row["server"] == {"enabled": True, "variant": row["variant"], "payload": row["payload"]}
    assert row["agrees"] is True


def test_every_flag_agrees_with_the_servers_playground(run: Run, server: httpx.Client) -> None:
    context = {"appName": "flagtui-playground", "userId": "42", "tenantId": "acme-beta"}
    listed = server.post(
        "/api/admin/playground", json={"environment": "production", "context": context}
    ).json()["features"]
    result = run(
        "playground", "--env", "production", "--context", "userId=42",
        "--context", "tenantId=acme-beta",
    )  # fmt: skip
    assert result.code == 0, result.err
    rows: list[dict[str, Any]] = result.json
    assert sorted(r["name"] for r in rows) == sorted(f["name"] for f in listed)
    assert [r for r in rows if r["agrees"] is not True] == []
    assert {r["enabled"] for r in rows} == {True, False}
    assert any(r["variant"] != "disabled" for r in rows)


def test_a_constraint_on_userid_answers_per_user(run: Run, server: httpx.Client) -> None:
    """The issue's check: `userId IN [u-1]` gives u-1 the flag and u-2 not, as the server says."""
    assert server.post(FEATURES, json={"name": "only-u1"}).status_code == 201
    base = f"{FEATURES}/only-u1/environments/production"
    only = {"contextName": "userId", "operator": "IN", "values": ["u-1"]}
    strategy = {"name": "flexibleRollout", "parameters": {"rollout": "100"}, "constraints": [only]}
    assert server.post(f"{base}/strategies", json=strategy).status_code == 200
    assert server.post(f"{base}/on").status_code == 200
    for user, expected in (("u-1", True), ("u-2", False)):
        argv = ("--env", "production", "--flag", "only-u1", "--context", f"userId={user}")
        result = run("playground", *argv)
        assert result.code == 0, result.err
        [row] = result.json
        assert (row["enabled"], row["agrees"]) == (expected, True), (user, row)


def test_a_population_of_synthetic_users(run: Run, server: httpx.Client) -> None:
    name = _titled(server, "10% of production")
    argv = ("--env", "production", "--flag", name, "--users", "2000")
    result = run("playground", *argv)
    assert result.code == 0, result.err
    [row] = result.json
    assert row["users"] == 2000 and 100 <= row["enabled"] <= 300
    assert row["variants"] == {"disabled": 2000}  # no variants: the SDK's "disabled" for all
    table = run("playground", *argv, "-o", "table")
    assert table.out.splitlines()[0].split() == ["project", "name", "users", "enabled", "variants"]
    assert "Evaluated locally only" in table.out


def test_what_cannot_be_evaluated_is_refused_saying_why(run: Run) -> None:
    production = ("playground", "--env", "production")
    for argv, said in (
        ((*production, "--context", "userId"), "expected KEY=VALUE"),
        ((*production, "--context", "environment=dev"), "give the environment with --env"),
        ((*production, "--users", "0"), "--users: from 1"),
        # Before, exit 0: the SDKs read no time in it, so every date constraint was off.
        ((*production, "--context", "currentTime=garbage"), "--context currentTime: a date"),
        ((*production, "--context", "currentTime=2026-01-31"), "(not '2026-01-31')"),
        ((*production, "--context", "currentTime=2026-02-30T09:00:00Z"), "a date and time"),
        ((*production, "--flag", "no-such-flag"), "no flag 'no-such-flag'"),
    ):
        result = run(*argv)
        assert (result.code, result.error["kind"]) == (2, "usage"), (argv, result.err)
        assert said in result.error["message"]
    for moment in ("2026-01-31T09:00:00Z", "2026-01-31 09:00:00.5+01:00", "2026-01-31t09:00:00z"):
        fine = run(*production, "--project", "default", "--context", f"currentTime={moment}")
        assert fine.code == 0, (moment, fine.err)
    unknown = run(*production, "--flag", "no-such-flag", "--project", "default")
    assert (unknown.code, unknown.error["status"]) == (4, 404)
    # `default` has no staging: each flag says so in its row (exit 0), as a flag alone refuses
    rows = run("playground", "--env", "staging", "--project", "default").json
    assert rows and all("has no environment 'staging'" in r["error"] for r in rows)
    alone = run("playground", "--env", "staging", "--flag", rows[0]["name"])
    assert alone.code == 2 and "has no environment 'staging'" in alone.error["message"]
