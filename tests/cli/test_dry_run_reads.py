"""`--dry-run` sends nothing but reads: every write command (found in the parsers themselves),
run with `--dry-run` through a loopback gateway in front of the sandbox, shows the write it
would send while the gateway sees only reads: GETs, and the POSTs that change nothing
(`dry_run.READING_POSTS`: the event search, the export route flags are read through)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import httpx
from gateway import Gateway

from flagtui.cli.dry_run import READING_POSTS

from .writes import write_commands

FLAG = "admin-async-emails"  # a live default-project flag of the demo, off everywhere
ROLLOUT = ("admin-async-navigation", "rollout-example-0")  # a production rollout of the demo
FEATURES = "/api/admin/projects/default/features"
APPLIED = """version = 1
projects = ["default"]
environments = ["production"]
selected = ["dry-applied"]

[[flags]]
project = "default"
name = "dry-applied"
type = "release"
impressionData = false
tags = []
dependencies = []

[flags.environments.production]
enabled = true
strategies = [{name = "default", disabled = false}]
variants = []
"""


def dry_runs(server: httpx.Client) -> dict[str, list[str]]:
    """Each write command's arguments, on records the sandbox is made to hold first so that
    each one has something to send (not "nothing sent")."""
    stale = f"{FEATURES}/admin-new-emails"
    assert server.patch(stale, json=[{"op": "replace", "path": "/stale", "value": True}]).is_success
    assert server.post(f"{FEATURES}/{FLAG}/environments/development/on").is_success
    env_strategies = f"{FEATURES}/{FLAG}/environments/development/strategies"
    for name in ("default", "flexibleRollout"):
        assert server.post(env_strategies, json={"name": name}).is_success
    ids = [s["id"] for s in server.get(env_strategies).json()]
    disabled = server.get(env_strategies).json()[-1]
    assert server.put(f"{env_strategies}/{disabled['id']}", json={**disabled, "disabled": True})
    archived = server.get(
        "/api/admin/search/features", params={"lifecycle": "IS:archived", "project": "IS:default"}
    ).json()["features"][0]["name"]
    live = server.get(
        "/api/admin/search/features", params={"lifecycle": "IS:live", "project": "IS:default"}
    ).json()["features"][0]["name"]
    payments = server.get("/api/admin/projects/payments/features").json()["features"]
    flag, env = next(
        (f["name"], e["name"]) for f in payments for e in f["environments"] if e.get("variantCount")
    )
    addons = server.get("/api/admin/addons").json()["addons"]
    on = next(str(a["id"]) for a in addons if a["enabled"])
    off = next(str(a["id"]) for a in addons if not a["enabled"])
    rollout = ["default", *ROLLOUT]
    for name in ("dry-parent", "dry-child"):
        assert server.post(FEATURES, json={"name": name}).is_success
    assert server.post(f"{FEATURES}/dry-child/dependencies", json={"feature": "dry-parent"})
    tagged = server.post(
        f"/api/admin/features/{FLAG}/tags", json={"type": "simple", "value": "old"}
    )
    assert tagged.is_success
    unused = {"name": "dry-unused", "constraints": []}
    assert server.post("/api/admin/segments", json=unused).is_success
    token = {"tokenName": "dry-token", "type": "client", "environment": "development"}
    assert server.post("/api/admin/api-tokens", json=token).is_success
    to_production = ["--to-env", "production"]
    flags_file = Path(tempfile.mkdtemp()) / "flags.toml"
    flags_file.write_text(APPLIED, encoding="utf-8")
    return {
        "feature patch": ["default", FLAG, "--set", "description=dry"],
        "feature uncomplete": ["platform", "db-batched-dashboard"],
        "feature archive": ["default", FLAG],
        "feature revive": ["default", archived],
        "feature enable": ["default", FLAG, "production"],
        "feature disable": ["default", FLAG, "development"],
        "feature mark-stale": ["default", FLAG],
        "feature unmark-stale": ["default", "admin-new-emails"],
        "feature create": ["default", "dry-run-reads"],
        "feature strategy add": ["default", FLAG, "production", "--rollout", "5"],
        "feature strategy set": [*rollout[:2], "production", rollout[2], "--rollout", "50"],
        "feature strategy disable": [*rollout[:2], "production", rollout[2]],
        "feature strategy enable": ["default", FLAG, "development", disabled["id"]],
        "feature strategy remove": [*rollout[:2], "production", rollout[2]],
        "feature strategy order": ["default", FLAG, "development", ids[-1]],
        "feature variants set": ["payments", flag, env, "--variant", "on", "--variant", "off"],
        "integration enable": [off],
        "integration disable": [on],
        "integration create": ["webhook", "--param", "url=https://hooks.example.test/dry"],
        "integration edit": [on, "--description", "dry"],
        "context create": ["dry-field"],
        "context edit": ["plan", "--remove-legal-value", "free"],
        "context delete": ["email"],
        "integration delete": [on],
        "env remove": ["default", "development"],
        "env link": ["default", "qa"],
        "access grant": ["default", "--role", "6", "--user", "3"],
        "type lifetime": ["release", "12"],
        "cr delete": ["platform", "4"],
        "feature depend": ["default", FLAG, "dry-parent"],
        "feature undepend": ["default", "dry-child"],
        "tag add": ["default", FLAG, "--tag", "simple:dry"],
        "tag remove": ["default", FLAG, "--tag", "simple:old"],
        "tag type create": ["dry-type"],
        "project default-strategy set": ["default", "--env", "development", "--rollout", "5"],
        "feature clone": ["default", FLAG, "dry-run-clone"],
        "feature delete": ["default", archived],
        "feature complete": ["default", live],
        "feature strategy copy": ["default", FLAG, *("--from-env", "development"), *to_production],
        "segment create": ["dry-segment", "--constraint", "country IN NO,SE"],
        "segment edit": ["dry-unused", "--description", "dry"],
        "segment delete": ["dry-unused"],
        "apply": [str(flags_file), "--yes"],
        "token create": ["dry-new-token", "--env", "development"],
        "token revoke": ["dry-token"],
        "user create": ["--email", "dry@example.test", "--role", "Viewer"],
        "user role": ["3", "Editor"],
    }


def test_every_write_commands_dry_run_sends_only_gets(run, server, sandbox, monkeypatch):
    argvs = dry_runs(server)
    assert set(argvs) == write_commands(), "give each write command its arguments"
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        for words, argv in argvs.items():
            gateway.received.clear()
            result = run(*words.split(), *argv, "--dry-run", "-o", "json")
            assert result.code == 0, (words, result.err)
            shown = result.json
            planned = shown if isinstance(shown, dict) else shown[0]  # a plan's rows
            assert planned["dryRun"] is True, (words, shown)
            assert planned["method"] not in ("GET", "HEAD"), (words, shown)
            sent = {(r.method, r.path) for r in gateway.received
                    if r.method != "GET" and not r.path.endswith(READING_POSTS)}  # fmt: skip
            assert sent == set(), words
            assert gateway.received, words  # it went through the gateway


def test_a_dry_run_reads_through_the_proxy_every_command_uses(run, sandbox, monkeypatch):
    """The environment's proxy carries a dry run's reads, as it carries every other command's:
    a dry run has no transport of its own (one with its own proxy and certificate rules)."""
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    with Gateway(sandbox.url) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("UNLEASH_URL", sandbox.url)
        shown = run("feature", "show", "default", FLAG, "-o", "json")
        assert shown.code == 0, shown.err
        assert proxy.received, "the proxy is in the way of every command"
        proxy.received.clear()
        result = run("feature", "enable", "default", FLAG, "production", "--dry-run", "-o", "json")
        assert result.code == 0, result.err
        assert result.json["method"] == "POST", result.json
        assert [r.method for r in proxy.received if r.method != "GET"] == []
        assert proxy.received, "the dry run's reads went round the proxy"
