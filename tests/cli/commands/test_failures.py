"""`flagtui failures`: golden JSON, every integration newest first, the table a cron mail shows,
and reading the delivery archive `flagtui collect` keeps or the server without one. Its
freshness, `--follow` and unreadable rows: the test_failures_*.py beside it."""

from __future__ import annotations

import json

from lookalikes import LOOKALIKES, TWINS, add_failing_webhooks

from ..processes import patch_many
from .golden import assert_golden


def test_prints_its_answer_as_json_when_piped(run):
    result = run("failures", "--integration", "5")
    assert result.code == 0, result.err
    assert_golden("failures", result.json)
    # How far back the server's answer is complete, said as JSON on stderr (the server keeps
    # only recent deliveries: test_failures_server_only.py).
    assert json.loads(result.err)["answer"]["source"] == "live"


def test_failures_reads_every_integration_newest_first(run):
    found = run("failures").json
    assert found and all(d["state"] != "success" for d in found)
    times = [d["createdAt"] for d in found]
    assert times == sorted(times, reverse=True)
    assert {d["integrationId"] for d in found} >= {2, 5}


def test_failures_table_names_integrations_and_no_file(run, sandbox, cli_env):
    """Issue 23, item 4: the cron mail built from `failures -o table 2>&1` names each integration
    by description and provider (the id beside two alike), and says where it read from without
    the archive file's path."""
    made = add_failing_webhooks(sandbox)
    assert run("collect", "--once", "-o", "json").code == 0
    result = run("failures", "--since", "15m", "-o", "table")
    assert result.code == 0, result.err
    mail = result.err + result.out
    assert result.err.startswith("flagtui: from the delivery archive (collected until ")
    assert str(cli_env) not in mail and ".db" not in mail and "/" not in result.err
    lines = result.out.splitlines()
    for name in LOOKALIKES:
        assert sum(f"{name} (webhook)" in line for line in lines) == 1, result.out
    for addon_id in made[TWINS[0]]:
        assert sum(f"{TWINS[0]} (webhook) #{addon_id}" in line for line in lines) == 1


def test_failures_reads_the_archive_and_says_so(run, sandbox, server):
    patch_many(server, 3, "early")
    assert run("collect", "--once", "-o", "json").code == 0
    patch_many(server, 50, "late")  # the early deliveries drop off the server
    early = [
        d
        for d in server.get("/api/admin/addons/5/events", params={"limit": 100}).json()[
            "integrationEvents"
        ]
        if "early" in str(d["event"])
    ]
    assert early == []
    # Collected again: the archive answers up to then, the server for the rest (nothing new).
    assert run("collect", "--once", "-o", "json").code == 0
    listed = run("failures", "--integration", "5", "-o", "json")
    assert listed.code == 0
    answer = json.loads(listed.err)["answer"]  # with JSON output, said as JSON on stderr
    assert (answer["source"], answer["complete"], answer["liveAdded"]) == ("archive", True, 0)
    early = [d for d in listed.json if "early" in str(d["event"])]
    assert len(early) == 3 and {d["source"] for d in early} == {"archive"}
    table = run("failures", "-o", "table")
    assert "from the delivery archive" in table.err
    assert "Traceback" not in table.err


def test_failures_reads_the_server_without_an_archive(run):
    listed = run("failures", "-o", "table")
    assert listed.code == 0 and "archive" not in listed.err


def test_a_bad_limit_names_the_option_and_the_limit(run):
    result = run("failures", "--limit", "0", "-o", "table")
    assert (result.code, result.line) == (2, "flagtui: --limit: at least 1 (it is 0)")
