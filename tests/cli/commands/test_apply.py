"""`flagtui apply`: an export of one sandbox applied to a second one makes it the same (a plan
after it is nothing to do, a second export byte-identical, strategies in the file's order, a
disabled one kept disabled, a new context field, a tag and a dependency, on/off last); a write
that fails half-way stops the apply and says what was sent and what was not; a read-only
profile is refused before any request; --dry-run sends nothing. Segments, a context field's
changes and links: test_apply_objects.py."""

from __future__ import annotations

import json
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from flagtui.sandbox.server import SandboxServer

from ..conftest import event_count
from .helpers import assert_piped_golden

SUFFIX = secrets.token_hex(3)
NEW = f"apply-new-{SUFFIX}"
EDITED = "notifications-v2-screen"  # default: on in development and production
FIELD = f"applyField{SUFFIX}"
STRATEGIES = f"/api/admin/projects/default/features/{NEW}/environments/production/strategies"


class FailOneStrategyPost:
    """A fault on the wire: the first strategy POST for `NEW` answers 500, the rest pass."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.failed = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        hit = scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == STRATEGIES
        if hit and not self.failed:
            self.failed += 1
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json")]})  # fmt: skip
            await send({"type": "http.response.body",
                        "body": b'{"name":"InternalError","message":"fault"}'})  # fmt: skip
            return
        await self.app(scope, receive, send)


def _second(sandbox_template: Path, tmp_path: Path, fault: bool = False) -> SandboxServer:
    path = tmp_path / "second.db"
    shutil.copyfile(sandbox_template, path)
    second = SandboxServer(path)
    if fault:
        second.app = FailOneStrategyPost(second.app)  # type: ignore[assignment]
    return second.start()


@pytest.fixture
def second(sandbox_template: Path, tmp_path: Path) -> Iterator[SandboxServer]:
    server = _second(sandbox_template, tmp_path)
    yield server
    server.stop()


def _use(monkeypatch: pytest.MonkeyPatch, server: SandboxServer) -> None:
    monkeypatch.setenv("UNLEASH_URL", server.url)
    monkeypatch.setenv("UNLEASH_API_TOKEN", server.admin_token)


def _ok(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code < 300, answer.text
    return answer.json() if answer.content else {}


def _make_changes(server: httpx.Client) -> None:
    """On the first sandbox: a new flag with three strategies in an order of their own (one
    disabled, one with a segment and variants), on in production; an old flag edited."""
    segments = _ok(server.get("/api/admin/segments"))["segments"]
    beta = next(s["id"] for s in segments if s["name"] == "beta-testers")
    _ok(
        server.post(
            "/api/admin/projects/default/features",
            json={"name": NEW, "type": "experiment", "description": "made to apply"},
        )
    )
    _ok(server.post("/api/admin/context", json={"name": FIELD, "legalValues": [{"value": "x"}]}))
    ids = []
    for body in (
        {"name": "default", "title": "everyone else", "disabled": True},
        {"name": "flexibleRollout", "title": "beta", "segments": [beta],
         "parameters": {"rollout": "35", "stickiness": "default", "groupId": NEW},
         "variants": [{"name": "blue", "weight": 1000, "weightType": "variable",
                       "stickiness": "default", "payload": {"type": "string", "value": "b"}}]},
        {"name": "remoteAddress", "parameters": {"IPs": "10.0.0.1"},
         "constraints": [{"contextName": FIELD, "operator": "IN", "values": ["x"]}]},
    ):  # fmt: skip
        ids.append(_ok(server.post(STRATEGIES, json=body))["id"])
    order = [{"id": ids[i], "sortOrder": n} for n, i in enumerate((2, 0, 1))]
    _ok(server.post(f"{STRATEGIES}/set-sort-order", json=order))
    _ok(server.post(f"/api/admin/projects/default/features/{NEW}/environments/production/on"))
    _ok(server.post(f"/api/admin/features/{NEW}/tags", json={"type": "simple", "value": "applied"}))
    _ok(server.post(f"/api/admin/projects/default/features/{NEW}/dependencies",
                    json={"feature": EDITED}))  # fmt: skip
    edited = f"/api/admin/projects/default/features/{EDITED}"
    _ok(server.patch(edited, json=[{"op": "replace", "path": "/description", "value": "new"}]))
    _ok(server.post(f"{edited}/environments/development/off"))
    _ok(server.post(f"{edited}/environments/production/strategies",
                    json={"name": "default", "title": "last"}))  # fmt: skip


def _export(run, path: Path) -> str:
    result = run("export", "--project", "default", "--env", "development", "--env",
                 "production", "-f", str(path))  # fmt: skip
    assert result.code == 0, result.err
    return path.read_text(encoding="utf-8")


def test_an_export_applied_to_its_own_server_is_nothing_to_send(run, server, tmp_path):
    _export(run, tmp_path / "a.toml")
    before = event_count(server)
    assert_piped_golden(run, "apply", "apply", str(tmp_path / "a.toml"), "--yes")
    assert event_count(server) == before


def test_an_export_applied_to_a_second_server_makes_it_the_same(
    run, server, second, monkeypatch, tmp_path
):
    _make_changes(server)
    first = _export(run, tmp_path / "a.toml")
    _use(monkeypatch, second)
    planned = run("plan", str(tmp_path / "a.toml"), "-o", "json")
    assert planned.code == 1, planned.err
    result = run("apply", str(tmp_path / "a.toml"), "--yes", "-o", "json")
    assert result.code == 0, result.err
    done = result.json["apply"]
    assert done["complete"] and done["notApplied"] == 0
    assert {s["outcome"] for s in done["steps"]} == {"done"}
    kinds = [(s["flag"], s["what"], s.get("environment")) for s in done["steps"]]
    assert kinds.index((NEW, "create", None)) < kinds.index((NEW, "strategies", "production"))
    assert kinds.index((NEW, "strategies", "production")) < kinds.index((NEW, "on", "production"))
    assert kinds[-2:] == sorted([(EDITED, "off", "development"), (NEW, "on", "production")])
    assert {b["state"] for b in done["readBack"]} == {"as the file"}
    assert kinds[0] == (FIELD, "create context field", None)
    assert kinds.index((NEW, "dependencies", None)) > kinds.index((NEW, "create", None))
    again = run("plan", str(tmp_path / "a.toml"), "-o", "json")
    assert again.code == 0 and again.json["changes"] is False, again.out
    assert _export(run, tmp_path / "b.toml") == first  # byte-identical
    with httpx.Client(base_url=second.url, headers={"Authorization": second.admin_token}) as b:
        flag = _ok(b.get(f"/api/admin/projects/default/features/{NEW}"))
    prod = next(e for e in flag["environments"] if e["name"] == "production")
    ordered = sorted(prod["strategies"], key=lambda s: s["sortOrder"])
    assert [s["name"] for s in ordered] == ["remoteAddress", "default", "flexibleRollout"]
    assert ordered[1]["disabled"] is True and prod["enabled"] is True
    assert flag["dependencies"][0]["feature"] == EDITED


def test_a_failure_half_way_says_what_was_applied_and_what_was_not(
    run, server, sandbox_template, monkeypatch, tmp_path
):
    _make_changes(server)
    _export(run, tmp_path / "a.toml")
    faulty = _second(sandbox_template, tmp_path, fault=True)
    try:
        _use(monkeypatch, faulty)
        result = run("apply", str(tmp_path / "a.toml"), "--yes", "-o", "json")
        assert result.code == 6, result.err  # the server's 500, as every command says it
        assert "InternalError" in result.err or "fault" in result.err
        done = result.json["apply"]
        assert done["complete"] is False
        by = {(s["flag"], s["what"], s.get("environment")): s for s in done["steps"]}
        assert by[(NEW, "create", None)]["outcome"] == "done"
        failed = by[(NEW, "strategies", "production")]
        assert failed["outcome"] == "refused" and failed["requests"] == ["add strategy 1"]
        assert by[(NEW, "on", "production")]["outcome"] == "not sent"
        assert done["applied"] + done["notApplied"] == len(done["steps"])
        assert "not sent:" in result.err and f"{NEW} on in production" in result.err
        with httpx.Client(base_url=faulty.url, headers={"Authorization": faulty.admin_token}) as b:
            flag = _ok(b.get(f"/api/admin/projects/default/features/{NEW}"))
        prod = next(e for e in flag["environments"] if e["name"] == "production")
        assert prod["enabled"] is False and prod["strategies"] == []  # never half-served
        (back,) = [b for b in done["readBack"] if b["name"] == NEW]
        assert back["state"] == "differs" and "strategies in production" in back["differs"]
    finally:
        faulty.stop()


def test_read_only_refuses_before_any_request_and_dry_run_sends_nothing(
    run, server, second, monkeypatch, tmp_path, cli_env
):
    _make_changes(server)
    _export(run, tmp_path / "a.toml")
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    refused = run("apply", str(tmp_path / "a.toml"), "-P", "ro", "--yes", "-o", "json")
    assert refused.code == 2 and refused.error["kind"] == "read-only"
    _use(monkeypatch, second)
    with httpx.Client(base_url=second.url, headers={"Authorization": second.admin_token}) as b:
        before = event_count(b)
        dry = run("apply", str(tmp_path / "a.toml"), "--dry-run")
        assert dry.code == 0, dry.err
        shown = json.loads(dry.out[dry.out.index("{") : dry.out.rindex("}") + 1])
        assert (shown["method"], shown["path"]) == ("POST", "/api/admin/context")
        assert shown["body"]["name"] == FIELD  # the first write, as it would leave
        assert f"would send: default/{NEW} on in production" in dry.err  # piped: JSON out
        assert event_count(b) == before
        assert b.get(f"/api/admin/projects/default/features/{NEW}").status_code == 404
        unasked = run("apply", str(tmp_path / "a.toml"))  # not a terminal, no --yes
        assert unasked.code == 2 and "nothing was sent" in unasked.err
        assert event_count(b) == before
