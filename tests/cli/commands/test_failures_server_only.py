"""`flagtui failures` answered by the server alone (no archive, or one that never collected this
server) says how far back it holds every delivery (issue 23, item 1): the server forgets (real
Unleash keeps about the newest 100), so a window it no longer lists in full is INCOMPLETE and
`--fail-on-failures` exits 8, not 0. Real sandboxes: one that forgets as real Unleash does, and
one that keeps every delivery (a page of 100 then does not reach back)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from flagtui.archive.location import default_archive_path, sqlite_url
from flagtui.archive.store import Archive

from ..processes import patch_many
from .helpers import add_failed_delivery, answer


def forget_a_failure(run, sandbox, server) -> str:
    """A delivery of integration 1 fails, then 110 changes push it out of the server's memory;
    the noisy integrations (2, 5) are off, so the window holds no failure the server still
    lists. The forgotten delivery's id."""
    for noisy in (2, 5):
        assert run("integration", "disable", str(noisy), "--yes").code == 0
    forgotten = add_failed_delivery(sandbox.db_path, integration_id=1)
    patch_many(server, 110, "after the failure")
    still = server.get("/api/admin/addons/1/events", params={"limit": 100}).json()
    assert forgotten not in {d["id"] for d in still["integrationEvents"]}
    return forgotten


def test_a_window_the_server_forgot_is_incomplete_not_nothing(run, sandbox, server):
    """Before, `[]` with nothing on stderr and exit 0: the cron recipe's "nothing failed"."""
    forget_a_failure(run, sandbox, server)
    result = run("failures", "--since", "1h", "--fail-on-failures", "-o", "json")
    assert result.json == []
    said = answer(result.err)
    assert said["source"] == "live" and said["complete"] is False
    assert 1 in said["unreached"] and "(webhook)" in said["unchecked"]
    complete_since = datetime.fromisoformat(said["completeSince"])
    assert complete_since > datetime.now(UTC) - timedelta(hours=1)  # after the window's start
    assert result.code == 8
    table = run("failures", "--since", "1h", "--fail-on-failures", "-o", "table")
    assert table.code == 8
    assert table.line.startswith("flagtui: from the server, which keeps only recent deliveries")
    assert "INCOMPLETE" in table.line


def test_a_never_collected_archive_and_a_server_that_forgot_is_incomplete(run, sandbox, server):
    Archive.open(sqlite_url(default_archive_path(sandbox.url)), sandbox.url).close()
    forget_a_failure(run, sandbox, server)
    result = run("failures", "--since", "1h", "--fail-on-failures", "-o", "table")
    assert result.code == 8
    assert "never collected from this server" in result.line
    assert "INCOMPLETE: the server no longer lists every delivery since" in result.line


def test_a_window_the_server_lists_in_full_is_complete(run):
    """Every integration's oldest listed delivery is older than the window (the demo's history
    is months old): the whole window was checked."""
    result = run("failures", "--since", "1h", "--fail-on-failures", "-o", "json")
    assert result.code == 0 and result.json == []
    said = answer(result.err)
    assert said["complete"] is True and said["unreached"] == [] and said["unchecked"] is None
    plain = run("failures", "--since", "1h", "-o", "table")
    assert "INCOMPLETE" not in plain.line and "(complete since " in plain.line


def test_a_page_at_the_servers_cap_that_does_not_reach_back_is_incomplete(run, sandbox, server):
    """A server that keeps every delivery: 150 failures of integration 5 in the window, and
    one read lists at most 100 per integration, the oldest of them inside the window."""
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    for _ in range(150):
        add_failed_delivery(sandbox.db_path, integration_id=5)
    result = run("failures", "--since", "1h", "--integration", "5", "--fail-on-failures")
    assert result.code == 1  # failures found: said first, whatever the rest
    said = json.loads(result.err)["answer"]
    assert (said["complete"], said["unreached"], said["inWindow"]) == (False, [5], 100)
    # Integration 3's page is full too, but reaches back before the window: complete.
    reaching = run("failures", "--since", "1h", "--integration", "3", "--fail-on-failures")
    assert reaching.code == 0 and answer(reaching.err)["complete"] is True


@pytest.mark.parametrize("output", ["json", "csv", "table"])
def test_the_whole_history_of_a_server_that_forgot_is_incomplete(run, output):
    """No --since: every delivery the server ever had, which it no longer lists (the demo's
    integrations have thousands each)."""
    result = run("failures", "--integration", "5", "--fail-on-failures", "-o", output)
    assert result.code == 1  # its failures are found; the rest of the history is not
    if output == "json":
        assert answer(result.err)["complete"] is False
    else:
        assert "INCOMPLETE" in result.line
