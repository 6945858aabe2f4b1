"""`flagtui apply` of what is not a flag's rollout, on the sandbox: a context field created and
one changed, a segment created (its new id the one the strategies naming it are sent with) and
one changed, each before the flags; the server holds the file's objects afterwards and a second
plan is nothing to do. A write that fails half-way says which were applied; a flag's links on
the sandbox (which keeps none) are refused before anything is sent."""

from __future__ import annotations

import secrets
import shutil
import tomllib
from pathlib import Path
from typing import Any

import httpx
import tomli_w

from flagtui.sandbox.server import SandboxServer

from ..conftest import event_count

SUFFIX = secrets.token_hex(3)
FIELD = f"applyObjects{SUFFIX}"
SEGMENT = f"apply-segment-{SUFFIX}"
FLAG = f"apply-objects-{SUFFIX}"
SEGMENTS = "/api/admin/segments"


class FailSegmentPost:
    """A fault on the wire: a segment POST answers 500, the rest pass."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and (scope["method"], scope["path"]) == ("POST", SEGMENTS):
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json")]})  # fmt: skip
            await send({"type": "http.response.body",
                        "body": b'{"name":"InternalError","message":"fault"}'})  # fmt: skip
            return
        await self.app(scope, receive, send)


def _file(run, path: Path, *, links: bool = False) -> None:
    """The sandbox's export, then edited: a new context field and a new segment on it, a flag
    whose strategy names the new segment and beta-testers, `plan` and beta-testers changed."""
    result = run("export", "--project", "default", "--env", "development", "--env",
                 "production", "-f", str(path))  # fmt: skip
    assert result.code == 0, result.err
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    plan = next(f for f in data["contextFields"] if f["name"] == "plan")
    legal = [*plan["legalValues"], {"value": "team", "description": "new"}]
    plan.update(description="changed by apply", stickiness=True, legalValues=legal)
    data["contextFields"].append({"name": FIELD, "stickiness": False,
                                  "legalValues": [{"value": "x"}, {"value": "y"}]})  # fmt: skip
    beta = next(s for s in data["segments"] if s["name"] == "beta-testers")
    beta["constraints"] = [{"contextName": "userId", "operator": "IN", "values": ["7", "8"]}]
    data["segments"].append({"name": SEGMENT, "description": "made by apply", "constraints": [
        {"contextName": FIELD, "operator": "IN", "values": ["x"]}]})  # fmt: skip
    flag: dict[str, Any] = {"project": "default", "name": FLAG, "type": "release",
                            "impressionData": False, "tags": [], "dependencies": []}  # fmt: skip
    if links:
        flag["links"] = [{"url": "https://example.com/runbook", "title": "Runbook"}]
    flag["environments"] = {
        "development": {"enabled": False, "strategies": [], "variants": []},
        "production": {"enabled": True, "variants": [], "strategies": [
            {"name": "flexibleRollout", "disabled": False, "segments": ["beta-testers", SEGMENT],
             "parameters": {"groupId": FLAG, "rollout": "50", "stickiness": "default"}}]},
    }  # fmt: skip
    data["flags"].append(flag)
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def _ok(answer: httpx.Response) -> Any:
    assert answer.status_code < 300, answer.text
    return answer.json() if answer.content else {}


def test_segments_and_context_fields_are_written_before_the_flags_that_use_them(
    run, server, tmp_path
):
    _file(run, tmp_path / "a.toml")
    planned = run("plan", str(tmp_path / "a.toml"), "-o", "json")
    assert planned.code == 1, planned.err
    result = run("apply", str(tmp_path / "a.toml"), "--yes", "-o", "json")
    assert result.code == 0, result.err
    done = result.json["apply"]
    assert done["complete"] and {s["outcome"] for s in done["steps"]} == {"done"}
    kinds = [(s["flag"], s["what"]) for s in done["steps"]]
    assert set(kinds[:2]) == {("plan", "update context field"), (FIELD, "create context field")}
    assert set(kinds[2:4]) == {("beta-testers", "update segment"), (SEGMENT, "create segment")}
    assert kinds.index((FLAG, "create")) > 3
    assert {b["state"] for b in done["readBack"]} == {"as the file"}, done["readBack"]
    objects = {(b.get("kind"), b["name"]) for b in done["readBack"]}
    assert {("context field", "plan"), ("segment", SEGMENT)} <= objects
    assert "read back segment beta-testers: as the file" in result.err

    segments = {s["name"]: s for s in _ok(server.get(SEGMENTS))["segments"]}
    made = segments[SEGMENT]
    assert made["description"] == "made by apply"
    assert [(c["contextName"], c["values"]) for c in made["constraints"]] == [(FIELD, ["x"])]
    assert segments["beta-testers"]["constraints"][0]["values"] == ["7", "8"]
    flag = _ok(server.get(f"/api/admin/projects/default/features/{FLAG}"))
    (strategy,) = next(e for e in flag["environments"] if e["name"] == "production")["strategies"]
    assert sorted(strategy["segments"]) == sorted([made["id"], segments["beta-testers"]["id"]])
    field = _ok(server.get("/api/admin/context/plan"))
    assert field["description"] == "changed by apply" and field["stickiness"] is True
    assert {"value": "team", "description": "new"} in field["legalValues"]
    again = run("plan", str(tmp_path / "a.toml"), "-o", "json")
    assert again.code == 0 and again.json["changes"] is False, again.out


def test_a_failed_segment_says_the_context_fields_were_applied_and_the_flags_not(
    run, sandbox_template, monkeypatch, tmp_path
):
    _file(run, tmp_path / "a.toml")  # of the sandbox, a copy of the template as `faulty`
    shutil.copyfile(sandbox_template, tmp_path / "faulty.db")
    faulty = SandboxServer(tmp_path / "faulty.db")
    faulty.app = FailSegmentPost(faulty.app)  # type: ignore[assignment]
    with (
        faulty,
        httpx.Client(base_url=faulty.url, headers={"Authorization": faulty.admin_token}) as server,
    ):
        monkeypatch.setenv("UNLEASH_URL", faulty.url)
        monkeypatch.setenv("UNLEASH_API_TOKEN", faulty.admin_token)
        _failed_half_way(run, server, tmp_path / "a.toml")


def _failed_half_way(run, server: httpx.Client, path: Path) -> None:
    result = run("apply", str(path), "--yes", "-o", "json")
    assert result.code == 6, result.err  # the server's 500, as every command says it
    done = result.json["apply"]
    assert done["complete"] is False
    by = {(s["flag"], s["what"]): s for s in done["steps"]}
    assert by[("plan", "update context field")]["outcome"] == "done"
    assert by[(FIELD, "create context field")]["outcome"] == "done"
    assert by[("beta-testers", "update segment")]["outcome"] == "not sent"  # after, by name
    failed = by[(SEGMENT, "create segment")]
    assert failed["outcome"] == "refused" and "fault" in failed["why"]
    assert by[(FLAG, "create")]["outcome"] == "not sent"
    unsent = result.err[result.err.index("not sent:") :]
    assert "update segment beta-testers" in unsent and f"default/{FLAG} create" in unsent
    assert done["applied"] == 2 and done["applied"] + done["notApplied"] == len(done["steps"])
    names = {s["name"] for s in _ok(server.get(SEGMENTS))["segments"]}
    assert SEGMENT not in names
    assert server.get(f"/api/admin/projects/default/features/{FLAG}").status_code == 404
    assert _ok(server.get(f"/api/admin/context/{FIELD}"))["name"] == FIELD
    assert _ok(server.get("/api/admin/context/plan"))["description"] == "changed by apply"
    beta = next(s for s in _ok(server.get(SEGMENTS))["segments"] if s["name"] == "beta-testers")
    assert beta["constraints"][0]["values"] == ["1001", "1002", "1003"]  # as it was


def test_links_on_a_server_that_keeps_none_are_refused_before_sending(run, server, tmp_path):
    _file(run, tmp_path / "a.toml", links=True)
    before = event_count(server)
    result = run("apply", str(tmp_path / "a.toml"), "--yes", "-o", "json")
    assert result.code == 2, result.err
    assert f"flag default/{FLAG}: Flag links: the sandbox (8.2.0) keeps no links" in result.err
    assert "nothing was sent" in result.err
    assert event_count(server) == before
