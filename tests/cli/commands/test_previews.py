"""Every rollout write previews who gets the flag (`preview` in its JSON answer and in its
`--dry-run`), with the `--context` typed; the numbers are compared with an independent
evaluation of what the server holds before and after the write: the sandbox's own client API
(`/api/client/features`, production) fed to the SDKs' engine, as an SDK would be, for the same
10,000 userIds and context."""

from __future__ import annotations

from typing import Any

from served_share import served

from flagtui.preview.share import PLAN_USERS
from testkit.pty_term import Term

from ..processes import FLAGTUI, command_env, finish
from .rollout_helpers import BETA_TENANTS, TEN_PERCENT, strategies

USERS = 10_000
PROJECT = "default"
FLAG, STRATEGY = TEN_PERCENT  # production: one 10 % gradual rollout
NORWAY = ("--context", "country=NO")


def evaluated(sandbox: Any, flag: str, context: dict[str, Any]) -> tuple[int, dict[str, int]]:
    return served(sandbox, flag, context, USERS)


NORWAY_CONTEXT = {"appName": "flagtui-playground", "properties": {"country": "NO"}}


def previewed(run: Any, sandbox: Any, flag: str, *argv: str) -> dict[str, Any]:
    """Run the write (`argv`, piped: JSON); its preview's before and after are what the SDKs'
    engine gives on the server's state before and after it. The preview."""
    context = NORWAY_CONTEXT if "country=NO" in argv else {"appName": "flagtui-playground"}
    before, _ = evaluated(sandbox, flag, context)
    result = run(*argv)
    assert result.code == 0, result.err
    preview = result.json["preview"]
    after, variants = evaluated(sandbox, flag, context)
    assert (preview["users"], preview["context"]) == (USERS, context)
    assert (preview["before"], preview["after"]) == (before, after), preview
    if "variants" in preview:
        assert preview["variants"]["after"] == variants
    return dict(preview)


def test_a_raise_within_a_constraint_previews_the_share_the_context_gets(run, sandbox, server):
    # 10 % → 50 % for Norway and Sweden only: with country=NO, about 1,000 → 5,000
    argv = ("feature", "strategy", "set", PROJECT, FLAG, "production", STRATEGY, "--yes")
    raised = previewed(
        run, sandbox, FLAG, *argv, "--rollout", "50", "--constraint", "country IN NO,SE", *NORWAY
    )
    assert 800 < raised["before"] < 1_200 and 4_500 < raised["after"] < 5_500, raised
    # without the context, no synthetic user is in Norway: the same write previews … → 0
    elsewhere = previewed(run, sandbox, FLAG, *argv, "--rollout", "60")
    assert elsewhere == {**elsewhere, "before": 0, "after": 0}


def test_each_rollout_write_previews_what_the_server_then_evaluates(run, sandbox, server):
    scope = (PROJECT, FLAG, "production")
    added = previewed(
        run, sandbox, FLAG, "feature", "strategy", "add", *scope, "--rollout", "30",
        "--constraint", "country IN NO", *NORWAY, "--yes",
    )  # fmt: skip
    assert added["after"] > added["before"] > 0
    new = next(s["id"] for s in strategies(server, FLAG, "production") if s["id"] != STRATEGY)
    off = previewed(run, sandbox, FLAG, "feature", "strategy", "disable", *scope, new, *NORWAY,
                    "--yes")  # fmt: skip
    assert (off["before"], off["after"]) == (added["after"], added["before"])
    previewed(run, sandbox, FLAG, "feature", "strategy", "enable", *scope, new, *NORWAY, "--yes")
    gone = previewed(run, sandbox, FLAG, "feature", "strategy", "remove", *scope, new, *NORWAY,
                     "--yes")  # fmt: skip
    assert gone["after"] == added["before"]
    switched = previewed(run, sandbox, FLAG, "feature", "disable", *scope, "--yes")
    assert switched["after"] == 0 < switched["before"]
    assert switched["environmentEnabled"] == {"before": True, "after": False}


def test_a_change_in_an_environment_that_is_off_says_its_share_once_switched_on(
    run, sandbox, server
):
    scope = (PROJECT, FLAG, "production")
    assert run("feature", "disable", *scope, "--yes").code == 0
    argv = ("feature", "strategy", "set", *scope, STRATEGY, "--rollout", "40", "--yes")
    staged = previewed(run, sandbox, FLAG, *argv, "-o", "json")
    assert (staged["before"], staged["after"]) == (0, 0)  # it changes no one now
    when_on = staged["whenSwitchedOn"]
    assert 800 < when_on["before"] < 1_200 and 3_500 < when_on["after"] < 4_500, when_on
    live = previewed(run, sandbox, FLAG, "feature", "enable", *scope, "--yes")
    assert live["after"] == when_on["after"]  # the share the staged change said, now served
    assert "whenSwitchedOn" not in live
    table = run(*argv[:-3], "--rollout", "45", "--yes", "-o", "table")
    assert table.out.splitlines()[0].startswith("preview: ")


def test_the_dry_run_previews_what_the_write_then_does(run, sandbox, server):
    argv = ("feature", "strategy", "set", PROJECT, FLAG, "production", STRATEGY, "--rollout", "70")
    dry = run(*argv, "--dry-run")
    assert dry.code == 0, dry.err
    assert dry.json["dryRun"] is True and dry.json["method"] == "PUT"
    assert [s["parameters"]["rollout"] for s in strategies(server, FLAG, "production")] == ["10"]
    sent = previewed(run, sandbox, FLAG, *argv, "--yes")
    assert dry.json["preview"] == sent
    table = run(*argv[:-1], "75", "--dry-run", "-o", "table")
    assert table.out.splitlines()[0].startswith(f"preview: {sent['after']:,} → ")
    assert "nothing was sent" in table.out


def test_variants_set_previews_each_variant(run, sandbox, server):
    flag = next(
        f["name"]
        for f in server.get("/api/admin/projects/payments/features").json()["features"]
        for e in f["environments"]
        if e["name"] == "production" and e.get("variantCount")
    )
    changed = previewed(
        run, sandbox, flag, "feature", "variants", "set", "payments", flag, "production", "--yes",
        "--variant", "on=12.5%", "--variant", "off", "--stickiness", "userId",
    )  # fmt: skip
    split = changed["variants"]["after"]
    assert split["on"] + split["off"] == changed["after"] > 0, changed


def test_a_bad_context_is_refused_naming_the_option(run, server):
    argv = ("feature", "strategy", "set", PROJECT, FLAG, "production", STRATEGY, "--rollout", "5")
    for bad, said in (("country", "expected KEY=VALUE"), ("environment=x", "give the environment")):
        result = run(*argv, "--context", bad, "--yes")
        assert result.code == 2, result.err
        assert result.error["message"].startswith("--context"), result.error
        assert said in result.error["message"]
    assert [s["parameters"]["rollout"] for s in strategies(server, FLAG, "production")] == ["10"]


def test_on_a_terminal_the_production_question_follows_the_numbers(cli_env, sandbox, server):
    argv = [*FLAGTUI, "feature", "strategy", "set", PROJECT, FLAG, "production", STRATEGY,
            "--rollout", "50", "-o", "json"]  # fmt: skip
    before, _ = evaluated(sandbox, FLAG, {"appName": "flagtui-playground"})
    term = Term(argv, command_env(cli_env, sandbox), cols=200)
    term.wait_for(lambda t: t.has("Type 'production' to confirm"), what="the question")
    assert term.has(f"preview: {before:,} → "), term.text()
    term.send("production\r")
    assert finish(term) == 0
    after, _ = evaluated(sandbox, FLAG, {"appName": "flagtui-playground"})
    assert term.has(f"preview: {before:,} → {after:,} of 10,000 synthetic userIds get the flag")


def test_a_plan_of_several_flags_previews_each_with_the_context(run, sandbox, server):
    """`feature enable A B production` (one plan): each flag's row says its before → after for
    the plan's 1,000 userIds with the --context typed, in the dry run and in the answer alike,
    and is what the server then serves."""
    names = [TEN_PERCENT[0], BETA_TENANTS[0]]
    for name in names:
        assert run("feature", "disable", PROJECT, name, "production", "--yes").code == 0
    beta = {"appName": "flagtui-playground", "properties": {"tenantId": "acme-beta"}}
    argv = ("feature", "enable", PROJECT, *names, "production", "--context", "tenantId=acme-beta")
    dry = run(*argv, "--dry-run")
    assert dry.code == 0, dry.err
    assert [row["outcome"] for row in dry.json] == ["planned", "planned"], dry.json
    table = run(*argv[:-2], "--context", "tenantId=nobody", "--dry-run", "-o", "table")
    said = f"preview of {BETA_TENANTS[0]}: 0 → 0 of 1,000"  # the context honoured: no one
    assert said in table.out + table.err, table
    assert not any(enabled_in(server, name) for name in names)
    result = run(*argv, "--yes")
    assert result.code == 0, result.err
    rows = {row["featureName"]: row for row in result.json}
    for name, planned in zip(names, dry.json, strict=True):
        preview = rows[name]["preview"]
        assert planned["preview"] == preview
        assert (preview["users"], preview["context"], preview["before"]) == (PLAN_USERS, beta, 0)
        assert preview["after"] == served(sandbox, name, beta, PLAN_USERS)[0], preview
    assert rows[BETA_TENANTS[0]]["preview"]["after"] == PLAN_USERS  # the tenant: everyone
    assert 50 < rows[TEN_PERCENT[0]]["preview"]["after"] < 150


def test_a_plan_asked_on_a_terminal_says_each_flags_preview_first(cli_env, sandbox, server):
    names = [TEN_PERCENT[0], BETA_TENANTS[0]]
    for name in names:
        server.post(f"/api/admin/projects/{PROJECT}/features/{name}/environments/production/off")
    argv = [*FLAGTUI, "feature", "enable", PROJECT, *names, "production", "-o", "json"]
    term = Term(argv, command_env(cli_env, sandbox), cols=200)
    term.wait_for(lambda t: t.has("Type 'production' to confirm"), what="the question")
    assert term.has(f"preview of {BETA_TENANTS[0]}: 0 → 0 of 1,000 synthetic userIds")
    assert term.has(f"preview of {TEN_PERCENT[0]}: 0 → "), term.text()
    assert not any(enabled_in(server, name) for name in names)
    term.send("production\r")
    assert finish(term) == 0
    assert all(enabled_in(server, name) for name in names)


def enabled_in(server: Any, name: str, environment: str = "production") -> bool:
    flag = server.get(f"/api/admin/projects/{PROJECT}/features/{name}").json()
    return bool(next(e["enabled"] for e in flag["environments"] if e["name"] == environment))
