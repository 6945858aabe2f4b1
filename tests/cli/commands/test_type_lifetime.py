"""`flagtui type lifetime`: golden JSON, a dry run, days and never read back; out of range
refused."""

from __future__ import annotations

from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

ARGV = ("type", "lifetime", "release", "12")


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "type-lifetime", *ARGV)


def test_dry_run_sends_nothing(run, server):
    assert_dry_run_sends_nothing(run, server, *ARGV)


def test_type_lifetime_days_and_never(run, server):
    assert run("type", "lifetime", "release", "12").json["lifetimeDays"] == 12
    assert run("type", "lifetime", "experiment", "never").json["lifetimeDays"] is None
    types = {
        t["id"]: t["lifetimeDays"] for t in server.get("/api/admin/feature-types").json()["types"]
    }
    assert (types["release"], types["experiment"]) == (12, None)


def test_type_lifetime_out_of_range_names_the_field_and_limit(run, server):
    for days in ("2147483648", "-1", "soon"):
        result = run("type", "lifetime", "release", days, "-o", "table")
        assert result.code == 2
        assert (
            result.line == "flagtui: lifetimeDays: an integer from 0 to 2147483647, or null (never)"
        )
    types = {
        t["id"]: t["lifetimeDays"] for t in server.get("/api/admin/feature-types").json()["types"]
    }
    assert types["release"] == 40
