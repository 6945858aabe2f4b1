"""`flagtui playground`: each flag evaluated locally with the SDKs' engine from its admin
record, beside the server's own playground answer (the sandbox's comes from the same engine,
fed by its client API: any difference is in how flagtui reads and converts the records)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from gateway import Answer, Gateway

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


def test_a_population_is_compared_user_by_user_with_the_server(
    run: Run, server: httpx.Client
) -> None:
    """Before, local only ("the server's playground answers one context at a time"). 400 users:
    with 1,000 the sandbox's answer outlasted the client's 10 s timeout on a loaded machine."""
    name = _titled(server, "10% of production")
    argv = ("--env", "production", "--flag", name, "--users", "400")
    result = run("playground", *argv)
    assert result.code == 0, result.err
    [row] = result.json
    assert row["users"] == 400 and 20 <= row["enabled"] <= 60
    assert row["variants"] == {"disabled": 400}  # no variants: the SDK's "disabled" for all
    assert row["server"] == {"users": 400, "agree": 400, "disagreeing": []}
    assert row["agrees"] is True
    table = run("playground", *argv, "-o", "table")
    header, line = table.out.splitlines()[:2]
    assert header.split() == ["project", "name", "users", "enabled", "variants", "server.agree"]
    assert line.split()[-1] == "400"
    assert "agrees user by user on every flag" in table.out and table.err == ""


def test_a_population_the_server_disagrees_with_shows_the_first_users(
    run: Run, server: httpx.Client, sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's answers are read before the flag's record: another admin switches the flag
    on in between (a gateway lets them, once the server has answered), so the server said off
    for everyone and the SDKs' engine, on the record read after, says on for half."""
    assert server.post(FEATURES, json={"name": "pop-race"}).status_code == 201
    base = f"{FEATURES}/pop-race/environments/production"
    half = {"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "userId"}}
    assert server.post(f"{base}/strategies", json=half).status_code == 200

    def switch_on(method: str, path: str) -> None:
        if path == "/api/admin/playground/advanced":
            assert server.post(f"{base}/on").status_code == 200

    with Gateway(sandbox.url, after=switch_on) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        argv = ("playground", "--env", "production", "--flag", "pop-race", "--users", "400")
        result = run(*argv)
        assert result.code == 0, result.err
        assert server.post(f"{base}/off").status_code == 200
        table = run(*argv, "-o", "table")
    [row] = result.json
    on = row["enabled"]
    assert 150 < on < 250 and row["agrees"] is False
    assert (row["server"]["users"], row["server"]["agree"]) == (400, 400 - on)
    shown = row["server"]["disagreeing"]
    assert len(shown) == 5
    for first in shown:
        assert first["context"]["userId"].startswith("u-")
        assert first["context"]["appName"] == "flagtui-playground"
        assert first["local"] == {"enabled": True, "variant": "disabled", "payload": None}
        assert first["server"] == {"enabled": False, "variant": "disabled", "payload": None}
    user = shown[0]["context"]["userId"]
    note = f"pop-race: the server disagrees for {on:,} of 400 users;"
    assert note in table.out and f"{user} here on, the server off" in table.out


def test_a_context_the_server_would_split_stays_local_and_says_why(run: Run) -> None:
    """The advanced playground splits values at commas: `tenantId=a,b` would be two contexts a
    user, none of them this one."""
    argv = ("playground", "--env", "production", "--project", "hostile", "--users", "3")
    result = run(*argv, "--context", "tenantId=acme,beta")
    assert result.code == 0, result.err
    assert result.json and all((r["server"], r["agrees"]) == (None, None) for r in result.json)
    said = json.loads(result.err)["warning"]
    assert said["kind"] == "local-only"
    assert said["message"] == (
        "evaluated locally only: the server's advanced playground cannot take"
        " context.properties.tenantId: no comma (the server splits values at commas)"
    )


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        # Unleash before 5.2 has no advanced playground
        (
            Answer(404, "application/json", b'{"name":"NotFoundError","message":"Not found"}'),
            "this server has no advanced playground (POST /api/admin/playground/advanced)",
        ),
        # a proxy in front with a smaller body limit (real Unleash's 413 is express's HTML page)
        (
            Answer(413, "text/html", b"<html><title>PayloadTooLargeError</title></html>"),
            "the server refused a request body",
        ),
    ],
)
def test_a_server_without_the_advanced_playground_leaves_it_local(
    run: Run, sandbox, monkeypatch: pytest.MonkeyPatch, answer: Answer, said: str
) -> None:
    route = "/api/admin/playground/advanced"
    with Gateway(sandbox.url, answer=answer, method="POST", path=route, forward=False) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run("playground", "--env", "production", "--project", "hostile", "--users", "9")
        table = run(
            "playground", "--env", "production", "--project", "hostile", "--users", "9",
            "-o", "table",
        )  # fmt: skip
    assert result.code == 0, result.err
    assert result.json and all((r["server"], r["agrees"]) == (None, None) for r in result.json)
    assert all(r["users"] == 9 for r in result.json)
    message = json.loads(result.err)["warning"]["message"]
    assert message.startswith("evaluated locally only: ") and said in message
    assert table.code == 0 and "flagtui: warning: evaluated locally only: " in table.err
    assert "Traceback" not in result.err + table.err


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
