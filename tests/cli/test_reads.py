"""The reads against the demo sandbox: golden JSON per command (piped, so JSON by default),
jsonl, csv and table outputs, and server text made safe in tables."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest
from lookalikes import LOOKALIKES, TWINS, add_failing_webhooks

from .commands.golden import assert_golden

READS = {
    "feature-list": ["feature", "list", "--project", "default"],
    "feature-list-search": ["feature", "list", "--search", "checkout", "--type", "release"],
    "feature-list-archived": ["feature", "list", "--project", "default", "--archived"],
    "feature-show": ["feature", "show", "default", "admin-async-emails"],
    "event-search": ["event", "search", "--project", "default", "--limit", "5"],
    "integration-list": ["integration", "list"],
    "integration-deliveries": ["integration", "deliveries", "2", "--failed"],
    "failures": ["failures", "--integration", "5"],
    "user-search": ["user", "search", "admin"],
    "type-list": ["type", "list"],
    "env-list": ["env", "list", "default"],
    "cr-list": ["cr", "list", "platform"],
}


@pytest.mark.parametrize("name", sorted(READS))
def test_each_read_prints_the_apis_json_when_piped(run, name):
    result = run(*READS[name])
    assert result.code == 0, result.err
    assert result.err == ""
    assert_golden(name, result.json)


def test_cr_show_prints_one_record(run):
    first = run("cr", "list", "platform").json
    assert first, "the demo project has change requests"
    shown = run("cr", "show", "platform", str(first[0]["id"]))
    assert shown.code == 0
    assert shown.json["id"] == first[0]["id"]


def test_jsonl_prints_one_record_a_line(run):
    result = run("type", "list", "-o", "jsonl")
    lines = result.out.splitlines()
    assert [json.loads(line)["id"] for line in lines] == [t["id"] for t in run("type", "list").json]


def test_csv_has_the_apis_field_names_as_header(run):
    result = run("type", "list", "-o", "csv")
    rows = list(csv.reader(io.StringIO(result.out)))
    assert rows[0] == ["id", "name", "lifetimeDays"]
    assert ["release", "Release", "40"] in rows


def test_csv_cells_that_look_like_formulas_are_not_formulas(run):
    """Server text opened in a spreadsheet must not run: `=HYPERLINK(...)` stays text."""
    patch = 'description==HYPERLINK("https://evil.example","x")'
    assert run("feature", "patch", "default", "admin-async-emails", "--set", patch).code == 0
    out = run("feature", "show", "default", "admin-async-emails", "-o", "csv").out
    rows = list(csv.reader(io.StringIO(out)))
    description = rows[1][rows[0].index("description")]
    assert description == '\'=HYPERLINK("https://evil.example","x")'


def test_csv_list_cells_that_look_like_formulas_are_not_formulas(run, sandbox):
    """A list's cell is its items joined: it starts like a formula when its first item does."""
    events = json.dumps(['=HYPERLINK("https://evil.example","x")', "feature-created"])
    with sqlite3.connect(sandbox.db_path) as db:
        db.execute("UPDATE addons SET events = ? WHERE id = 1", (events,))
    out = run("integration", "list", "-o", "csv").out
    rows = list(csv.reader(io.StringIO(out)))
    first = next(dict(zip(rows[0], row, strict=True)) for row in rows[1:] if row[0] == "1")
    assert first["events"] == '\'=HYPERLINK("https://evil.example","x"),feature-created'


def test_event_search_since_keeps_only_recent_events(run):
    # The demo's events are from 2025; a write now makes the one recent event.
    assert run("event", "search", "--since", "10m").json == []
    assert run("type", "lifetime", "operational", "9").code == 0
    recent = run("event", "search", "--since", "10m").json
    assert [e["type"] for e in recent] == ["feature-type-updated"]


def test_tables_show_control_characters_instead_of_sending_them(run):
    table = run("event", "search", "--project", "hostile", "-o", "table").out
    assert "hx-" in table
    assert "\x1b" not in table and "\u202e" not in table
    assert "␛[31m" in table


def test_json_output_escapes_what_a_terminal_would_act_on(run):
    out = run("event", "search", "--project", "hostile").out
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\u001b" in out


def test_failures_reads_every_integration_newest_first(run):
    found = run("failures").json
    assert found and all(d["state"] != "success" for d in found)
    times = [d["createdAt"] for d in found]
    assert times == sorted(times, reverse=True)
    assert {d["integrationId"] for d in found} >= {2, 5}


def test_a_profile_given_before_the_noun_is_used(run):
    assert run("-P", "env", "type", "list").code == 0
    assert run("-P", "nope", "type", "list").error["message"].startswith("No profile named 'nope'")


def test_the_sandbox_options_are_the_sandboxs_own(run):
    result = run("sandbox", "--help")
    assert result.code == 0
    assert result.out.startswith("usage: flagtui sandbox [-h] [--host HOST] [--port PORT]")
    assert "--size {empty,demo,large}" in result.out


def test_integration_deliveries_pages_to_reach_the_limit(run, sandbox, server):
    """Real Unleash (and the sandbox) answer 50 to a limit over 100: a larger --limit pages."""
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    newest = server.get("/api/admin/addons/2/events", params={"limit": 100, "offset": 0})
    older = server.get("/api/admin/addons/2/events", params={"limit": 100, "offset": 100})
    on_server = [
        d["id"] for d in newest.json()["integrationEvents"] + older.json()["integrationEvents"]
    ]
    assert len(on_server) > 120, "the demo keeps enough deliveries of integration 2"
    shown = run("integration", "deliveries", "2", "--limit", "120").json
    assert [d["id"] for d in shown] == on_server[:120]
    refused = run("integration", "deliveries", "2", "--limit", "0")
    assert (refused.code, refused.error["message"]) == (2, "--limit: at least 1 (it is 0)")


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
