"""The output formats, on a few commands against the demo sandbox: jsonl and csv (the API's
field names; no cell a spreadsheet would run), and server text made safe in tables and JSON.
How a terminal or a pipe chooses: test_terminal.py; streaming pages: test_streaming.py."""

from __future__ import annotations

import csv
import io
import json
import sqlite3


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


def test_tables_show_control_characters_instead_of_sending_them(run):
    table = run("event", "search", "--project", "hostile", "-o", "table").out
    assert "hx-" in table
    assert "\x1b" not in table and "\u202e" not in table
    assert "␛[31m" in table


def test_json_output_escapes_what_a_terminal_would_act_on(run):
    out = run("event", "search", "--project", "hostile").out
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\u001b" in out
