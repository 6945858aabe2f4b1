"""`flagtui feature enable|disable` against the sandbox: golden JSON, a dry run, the server's
state afterwards; production needs --yes off a terminal; read-only profiles are refused before
any request."""

from __future__ import annotations

from testkit.pty_term import Term

from ..conftest import event_count
from ..processes import FLAGTUI, command_env, finish
from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

FLAG = "/api/admin/projects/default/features/admin-async-emails"
DISABLE = ("feature", "disable", "default", "admin-async-emails", "development")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "feature-disable", *DISABLE)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *DISABLE)


def enabled_in(server, environment: str) -> bool:
    envs = server.get(FLAG).json()["environments"]
    return next(e["enabled"] for e in envs if e["name"] == environment)


def test_enable_and_disable_outside_production(run, server):
    server.post(f"{FLAG}/environments/development/off")
    result = run("feature", "enable", "default", "admin-async-emails", "development")
    assert result.code == 0, result.err
    answer = result.json
    assert answer.pop("preview")["environmentEnabled"] == {"before": False, "after": True}
    assert answer == {
        "done": "feature-environment-enabled",
        "project": "default",
        "featureName": "admin-async-emails",
        "environment": "development",
    }
    assert enabled_in(server, "development") is True
    result = run("feature", "disable", "default", "admin-async-emails", "development")
    assert result.code == 0, result.err
    assert enabled_in(server, "development") is False


def test_production_needs_yes_when_not_on_a_terminal(run, server):
    before = (enabled_in(server, "production"), event_count(server))
    verb = "disable" if before[0] else "enable"
    result = run("feature", verb, "default", "admin-async-emails", "production")
    assert result.code == 2
    assert result.error["kind"] == "not-confirmed"
    assert "in production needs --yes" in result.error["message"]
    assert (enabled_in(server, "production"), event_count(server)) == before
    assert run("feature", verb, "default", "admin-async-emails", "production", "--yes").code == 0
    assert enabled_in(server, "production") is (not before[0])


def test_dry_run_shows_the_switch_and_sends_nothing(run, server):
    before = event_count(server)
    result = run("feature", "enable", "default", "admin-async-emails", "production", "--dry-run")
    assert result.code == 0, result.err
    answer = result.json
    assert answer.pop("preview")["users"] == 10_000  # what it says: test_previews.py
    assert answer == {
        "dryRun": True,
        "method": "POST",
        "path": f"{FLAG}/environments/production/on",
        "body": None,
    }
    assert event_count(server) == before


def test_an_unknown_environment_is_the_servers_404(run, server):
    result = run("feature", "enable", "default", "admin-async-emails", "nope")
    assert result.code == 4
    assert (
        "Could not find environment nope for feature: admin-async-emails"
        in (result.error["message"])
    )


def test_read_only_profile_is_refused_before_any_request(run, cli_env):
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    for argv in (
        ["feature", "enable", "default", "x", "development"],
        ["feature", "disable", "default", "x", "production", "--yes"],
    ):
        result = run(*argv, "-P", "ro")
        assert result.code == 2, argv
        assert result.error["kind"] == "read-only"


def test_on_a_terminal_production_asks_for_the_typed_name(cli_env, sandbox, server):
    env = command_env(cli_env, sandbox)
    before = enabled_in(server, "production")
    verb = "disable" if before else "enable"
    argv = [*FLAGTUI, "feature", verb, "default", "admin-async-emails", "production"]
    term = Term(argv, env, cols=120)
    term.wait_for(lambda t: t.has("Type 'production' to confirm"), what="the question")
    term.send("prod\r")
    assert finish(term) == 2
    assert enabled_in(server, "production") is before
    term = Term(argv, env, cols=120)
    term.wait_for(lambda t: t.has("Type 'production' to confirm"), what="the question")
    term.send("production\r")
    assert finish(term) == 0
    assert enabled_in(server, "production") is (not before)
