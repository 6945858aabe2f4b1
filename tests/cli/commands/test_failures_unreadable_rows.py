"""`flagtui failures` on an archive with a malformed row: the row is skipped, the command
succeeds, and every output format says how many rows were unreadable (on stderr: stdout stays
the data). The archive is filled by `flagtui collect`, then broken with sqlite3."""

from __future__ import annotations

import csv
import io
import json

from flagtui.archive.location import default_archive_path
from tests.archive.unreadable import break_two_failures


def warning_in(stderr: str) -> dict:
    """The one `warning` object among stderr's JSON lines (the answer's freshness is another)."""
    found = [json.loads(line) for line in stderr.splitlines()]
    (warning,) = [line["warning"] for line in found if "warning" in line]
    return dict(warning)


def test_failures_skip_unreadable_rows_and_say_so_in_every_format(run, sandbox):
    assert run("collect", "--once", "-o", "json").code == 0
    broken = break_two_failures(default_archive_path(sandbox.url))
    listed = run("failures", "--limit", "1000", "-o", "json")
    assert listed.code == 0, listed.err
    assert not {(d["integrationId"], int(d["id"])) for d in listed.json} & set(broken)
    warning = warning_in(listed.err)
    assert warning == {
        "kind": "unreadable-rows",
        "count": 2,
        "message": "2 rows unreadable (skipped)",
    }
    lines = run("failures", "--limit", "1000", "-o", "jsonl")
    assert warning_in(lines.err)["count"] == 2
    assert [json.loads(line) for line in lines.out.splitlines()] == listed.json
    table = run("failures", "-o", "table")
    assert table.code == 0 and "Traceback" not in table.err
    assert "flagtui: the delivery archive: 2 rows unreadable (skipped)" in table.err.splitlines()
    whole = run("failures", "--limit", "5000", "-o", "table")
    assert "--limit" not in whole.err  # before, the row left out was said as cut by --limit
    as_csv = run("failures", "-o", "csv")
    assert "flagtui: the delivery archive: 2 rows unreadable (skipped)" in as_csv.err.splitlines()
    assert next(csv.reader(io.StringIO(as_csv.out)))[0] == "integrationId"
    alert = run("failures", "--since", "36500d", "--fail-on-failures", "-o", "table")
    assert alert.code == 1  # what could be read still counts: failures found
