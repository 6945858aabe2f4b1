"""`flagtui feature strategies`: golden JSON (every environment), one environment, the table
in words (constraints, segments by name, variants), and an unknown flag."""

from __future__ import annotations

from .helpers import assert_piped_golden
from .rollout_helpers import BETA_TENANTS, TEN_PERCENT


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(
        run, "feature-strategies", "feature", "strategies", "default", BETA_TENANTS[0]
    )


def test_one_environment_in_the_order_they_are_evaluated(run, server):
    flag = BETA_TENANTS[0]
    added = server.post(
        f"/api/admin/projects/default/features/{flag}/environments/production/strategies",
        json={"name": "default", "sortOrder": -1},
    ).json()
    result = run("feature", "strategies", "default", flag, "--env", "production")
    assert result.code == 0, result.err
    assert [(r["position"], r["id"]) for r in result.json] == [
        (1, added["id"]),
        (2, BETA_TENANTS[1]),
    ]
    assert {r["environment"] for r in result.json} == {"production"}


def test_a_table_says_the_rollout_in_words(run):
    result = run("feature", "strategies", "default", BETA_TENANTS[0], "-o", "table")
    assert result.code == 0, result.err
    header, *rows = result.out.splitlines()
    assert header.split()[:5] == ["environment", "#", "id", "strategy", "rollout"]
    production = next(r for r in rows if r.startswith("production"))
    assert "“Beta tenants”" in production
    assert "100 % by default" in production
    assert "tenantId is one of acme-beta, globex-beta" in production
    development = next(r for r in rows if r.startswith("development"))
    assert "country is not" in development
    assert "segment 4" not in development  # named, not numbered
    ten = run(
        "feature", "strategies", "default", TEN_PERCENT[0], "--env", "production", "-o", "table"
    )
    assert "10 % by default" in ten.out


def test_an_unknown_flag_is_the_servers_404(run):
    result = run("feature", "strategies", "default", "no-such-flag")
    assert result.code == 4


def test_hostile_text_is_shown_not_sent_to_the_terminal(run):
    """The hostile project's strategies carry escape sequences, OSC 52 and BiDi overrides in
    their titles, group ids and constraint values."""
    for argv, shown in (
        (("feature", "strategies", "hostile", "hx-markup", "-o", "table"), "[/x]"),
        (("feature", "show", "hostile", "hx-markup", "-o", "table"), "␛]52;c;"),
    ):
        result = run(*argv)
        assert result.code == 0, result.err
        assert "rollout" in result.out
        assert "\x1b" not in result.out and "\u202e" not in result.out and "\x9b" not in result.out
        assert shown in result.out
