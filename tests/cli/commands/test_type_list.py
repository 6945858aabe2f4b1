"""`flagtui type list`: golden JSON."""

from __future__ import annotations

from .helpers import assert_piped_golden


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "type-list", "type", "list")


def test_a_type_without_a_lifetime_reads_never_in_a_table_and_null_in_json(run):
    """lifetimeDays null is the API's "never": an empty cell read as "not known"."""
    types = run("type", "list", "-o", "json").json
    never = [t["id"] for t in types if t.get("lifetimeDays") is None]
    assert never, "the sandbox has a type that never expires (kill-switch, permission)"
    table = run("type", "list", "-o", "table").out.splitlines()
    for type_id in never:
        (line,) = [row for row in table if row.split()[0] == type_id]
        assert line.split()[-1] == "never", line
    csv_rows = run("type", "list", "-o", "csv").out.splitlines()
    assert all(row.endswith(",never") for row in csv_rows if row.split(",")[0] in never)
