"""A production profile means production: every write (found in the parsers themselves) asks
for the typed profile name on a terminal, or needs `--yes`, whatever the environment's type;
off a terminal without `--yes` it is refused before any request."""

from __future__ import annotations

from testkit.pty_term import Term

from .processes import FLAGTUI, command_env, finish
from .writes import WRITES, assert_every_write_listed

FLAG = "/api/admin/projects/default/features/admin-async-emails"


def production_profile(cli_env, url: str) -> None:
    (cli_env / "config.toml").write_text(f'[profiles.prod]\nurl = "{url}"\nproduction = true\n')


def test_off_a_terminal_every_write_needs_yes_before_any_request(run, cli_env):
    # A closed port: a request would fail differently (unreachable, exit 4).
    production_profile(cli_env, "http://127.0.0.1:9")
    assert_every_write_listed(WRITES)
    for argv in WRITES:
        result = run(*argv, "-P", "prod")
        assert result.code == 2, (argv, result.err)
        assert result.error["kind"] == "not-confirmed", argv
        message = result.error["message"]
        assert message.endswith(
            "on production profile prod needs --yes when not run on a terminal; nothing was sent"
        ), message


def test_with_yes_a_write_to_a_development_environment_is_sent(run, cli_env, sandbox, server):
    production_profile(cli_env, sandbox.url)
    argv = ("feature", "disable", "default", "admin-async-emails", "development", "-P", "prod")
    assert run(*argv).code == 2
    assert enabled_in_development(server)  # not sent
    result = run(*argv, "--yes")
    assert result.code == 0, result.err
    assert result.json["done"] == "feature-environment-disabled"
    assert not enabled_in_development(server)


def test_a_dry_run_asks_nothing_and_sends_nothing(run, cli_env, sandbox, server):
    production_profile(cli_env, sandbox.url)
    argv = ("feature", "disable", "default", "admin-async-emails", "development", "-P", "prod")
    result = run(*argv, "--dry-run")
    assert result.code == 0, result.err
    assert result.json["dryRun"] is True
    assert enabled_in_development(server)  # not sent


def test_on_a_terminal_a_write_asks_for_the_typed_profile_name(cli_env, sandbox, server):
    production_profile(cli_env, sandbox.url)
    env = command_env(cli_env, sandbox)
    argv = [*FLAGTUI, "feature", "disable", "default", "admin-async-emails", "development"]
    question = "This will disable feature on production profile prod. Type 'prod' to confirm"
    term = Term([*argv, "-P", "prod"], env, cols=160)
    term.wait_for(lambda t: t.has(question), what="the question")
    term.send("production\r")
    assert finish(term) == 2
    assert term.has("not confirmed (expected 'prod'); nothing was sent")
    assert enabled_in_development(server)  # not sent

    term = Term([*argv, "-P", "prod"], env, cols=160)
    term.wait_for(lambda t: t.has(question), what="the question")
    term.send("prod\r")
    assert finish(term) == 0
    assert not enabled_in_development(server)


def enabled_in_development(server) -> bool:
    environments = server.get(FLAG).json()["environments"]
    return next(e["enabled"] for e in environments if e["name"] == "development")


def test_a_production_environment_on_a_production_profile_is_one_question(cli_env, sandbox, server):
    production_profile(cli_env, sandbox.url)
    env = command_env(cli_env, sandbox)
    argv = [*FLAGTUI, "feature", "disable", "default", "admin-async-emails", "production"]
    question = (
        "This will switch admin-async-emails off in production,"
        " on production profile prod. Type 'production' to confirm"
    )
    assert enabled_in(server, "production")
    before = switched_off_events(server)
    term = Term([*argv, "-P", "prod"], env, cols=200)
    term.wait_for(lambda t: t.has(question), what="the one question")
    term.send("production\r")
    assert finish(term) == 0
    assert term.text().count("to confirm") == 1, term.text()
    assert "Type 'prod'" not in term.text()
    assert not enabled_in(server, "production")
    assert switched_off_events(server) == before + 1  # sent once


def test_a_strategy_added_in_production_on_a_production_profile_is_one_question(
    cli_env, sandbox, server
):
    production_profile(cli_env, sandbox.url)
    env = command_env(cli_env, sandbox)
    before = len(strategies_in_production(server))
    argv = [*FLAGTUI, "feature", "strategy", "add", "default", "admin-async-emails", "production"]
    term = Term([*argv, "--rollout", "30", "-P", "prod"], env, cols=200)
    term.wait_for(lambda t: t.has("on production profile prod. Type 'production' to confirm"))
    term.send("production\r")
    assert finish(term) == 0
    assert term.text().count("to confirm") == 1, term.text()
    assert len(strategies_in_production(server)) == before + 1


def test_a_wrong_answer_to_the_one_question_sends_nothing(cli_env, sandbox, server):
    production_profile(cli_env, sandbox.url)
    env = command_env(cli_env, sandbox)
    argv = [*FLAGTUI, "feature", "disable", "default", "admin-async-emails", "production"]
    term = Term([*argv, "-P", "prod"], env, cols=200)
    term.wait_for(lambda t: t.has("on production profile prod. Type 'production' to confirm"))
    term.send("prod\r")
    assert finish(term) == 2
    assert term.text().count("to confirm") == 1, term.text()
    assert term.has("not confirmed (expected 'production'); nothing was sent")
    assert enabled_in(server, "production")


def enabled_in(server, environment: str) -> bool:
    environments = server.get(FLAG).json()["environments"]
    return next(e["enabled"] for e in environments if e["name"] == environment)


def strategies_in_production(server) -> list[dict]:
    return server.get(f"{FLAG}/environments/production/strategies").json()


def switched_off_events(server) -> int:
    query = {"feature": "IS:admin-async-emails", "type": "IS:feature-environment-disabled"}
    answer = server.get("/api/admin/search/events", params=query)
    assert answer.status_code == 200, answer.text
    return int(answer.json()["total"])
