"""`flagtui failures` says up to when its answer is known (issue 23, items 1, 2 and 7): an old
archive is completed from the live server, a server that is down leaves the archive to answer
(said once), an answer that could not check its window is not "nothing failed", and a limit
that cuts the answer says so. Real sandboxes and real archives; a stopped sandbox for "down"."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from flagtui.archive.location import default_archive_path, sqlite_url
from flagtui.archive.store import Archive
from flagtui.sandbox import SandboxServer

from ..processes import patch_many
from .helpers import add_failed_delivery, answer, collect_once

LONG_AGO = datetime.now(UTC) - timedelta(minutes=30)  # many collection intervals


@pytest.fixture
def own_server(cli_env, sandbox_db, monkeypatch) -> Iterator[SandboxServer]:
    """A sandbox of this test's own, the `env` profile's server, which the test may stop."""
    started = SandboxServer(sandbox_db).start()
    monkeypatch.setenv("UNLEASH_URL", started.url)
    monkeypatch.setenv("UNLEASH_API_TOKEN", started.admin_token)
    yield started
    started.stop()


def test_a_stopped_collector_does_not_hide_a_fresh_failure(run, sandbox, server):
    collect_once(sandbox, clock=LONG_AGO)
    patch_many(server, 1, "after the collector stopped")  # integration 5's delivery fails
    result = run("failures", "--since", "1m", "--fail-on-failures", "-o", "json")
    assert result.code == 1
    [row] = [r for r in result.json if r["integrationId"] == 5]
    assert row["source"] == "live" and "after the collector stopped" in str(row["event"])
    said = answer(result.err)
    assert said["collectedUntil"] == LONG_AGO.isoformat().replace("+00:00", "Z")
    assert said["complete"] is True and said["liveAdded"] == len(result.json)
    table = run("failures", "--since", "1m", "-o", "table")
    assert "live server read too" in table.err
    assert " live " in table.out.splitlines()[1]


def test_a_never_collected_archive_reads_the_server_too(run, sandbox, server):
    Archive.open(sqlite_url(default_archive_path(sandbox.url)), sandbox.url).close()
    patch_many(server, 1, "never collected")
    result = run("failures", "--since", "1m", "--fail-on-failures", "-o", "table")
    assert result.code == 1
    assert "never collected from this server" in result.line
    assert "live server read too" in result.line


def test_a_fresh_archive_and_the_server_down_is_incomplete_after_its_collection(run, own_server):
    """A collector read the server moments ago, then it went down: the archive's failures are
    printed, but the time since its collection could not be checked (issue 43, item 4; before,
    `complete: true`, "fresh, so the server was not asked")."""
    collect_once(own_server)
    own_server.stop()
    found = run("failures", "--fail-on-failures", "-o", "table")
    assert found.code == 1  # the archive's failures: found, whatever the rest holds
    assert "collected until" in found.line
    assert "INCOMPLETE: the server could not be read" in found.line
    assert "archive" in found.out.splitlines()[1]
    quiet = run("failures", "--integration", "1", "--fail-on-failures", "-o", "json")
    assert quiet.code == 8 and quiet.json == []
    said = answer(quiet.err)
    assert said["complete"] is False and "could not be read" in said["unchecked"]
    assert said["serverUnreachable"] is not None


def test_failures_after_a_fresh_collection_are_read_from_the_server(run, sandbox, server):
    """Collected moments ago, then deliveries fail: the archive answers only up to its last
    collection, the rest comes from the server (issue 43, item 4). Before: `[]`, exit 0,
    `complete: true`, `serverAsked: false`."""
    collect_once(sandbox)
    patch_many(server, 10, "after a fresh collection")  # integration 5 fails each of them
    result = run("failures", "--since", "30s", "--fail-on-failures", "-o", "json")
    assert result.code == 1
    fresh = [r for r in result.json if r["integrationId"] == 5]
    assert len(fresh) == 10 and all("after a fresh collection" in str(r["event"]) for r in fresh)
    assert {r["source"] for r in fresh} == {"live"}
    said = answer(result.err)
    assert said["complete"] is True and said["serverAsked"] is True
    assert said["liveAdded"] >= 10 and said["clockFault"] is None


def test_a_collection_later_than_now_is_a_clock_fault_not_fresh_forever(run, sandbox, server):
    """A collector whose clock runs an hour ahead: said as a clock fault, and the failures
    since are read from the server (before: "0 s ago", complete, none of them)."""
    ahead = datetime.now(UTC) + timedelta(hours=1)
    collect_once(sandbox, clock=ahead)
    patch_many(server, 3, "behind a clock ahead")
    result = run("failures", "--since", "30s", "--fail-on-failures", "-o", "json")
    assert result.code == 1
    behind = [r for r in result.json if r["integrationId"] == 5]
    assert len(behind) == 3 and all("behind a clock ahead" in str(r["event"]) for r in behind)
    said = answer(result.err)
    assert "later than now: the collector's clock runs ahead" in said["clockFault"]
    table = run("failures", "--since", "30s", "-o", "table")
    assert "later than now: CLOCK FAULT" in table.line and " s ago" not in table.line


def test_an_old_archive_and_the_server_down_is_incomplete_not_nothing(run, own_server):
    collect_once(own_server, clock=LONG_AGO)
    own_server.stop()
    result = run("failures", "--since", "1m", "--fail-on-failures", "-o", "json")
    assert result.code == 8 and result.json == []
    said = answer(result.err)
    assert said["complete"] is False and said["unchecked"]
    table = run("failures", "--since", "1m", "--fail-on-failures", "-o", "table")
    assert table.code == 8 and "INCOMPLETE" in table.line


@pytest.mark.parametrize("interval", ["0", "-1", "0.5", "nan", "inf"])
def test_follow_intervals_under_a_second_or_not_finite_are_refused(run, interval):
    result = run("failures", "--follow", "--interval", interval, "-o", "table")
    assert result.code == 2
    assert result.line.startswith("flagtui: --interval: seconds, 1 at least")


def test_a_limit_that_cuts_the_answer_says_so_in_every_format(run):
    everything = run("failures", "-o", "json").json
    assert len(everything) > 2
    cut = run("failures", "--limit", "2", "-o", "json")
    assert len(cut.json) == 2
    said = answer(cut.err)
    assert (said["inWindow"], said["shown"]) == (len(everything), 2)
    for output in ("csv", "table"):
        line = run("failures", "--limit", "2", "-o", output).line
        total = len(everything)
        assert line.endswith(f"; showing the newest 2 of {total} failures in the window (--limit)")
    assert run("failures", "--limit", "1", "--fail-on-failures").code == 1


def test_an_old_archive_and_a_server_that_forgot_since_is_incomplete_not_nothing(
    run, sandbox, server
):
    """The collector stopped, then a delivery failed and the server forgot it (real Unleash
    keeps about the newest 100 deliveries): the live read cannot vouch for the time between
    the archive's last collection and the oldest delivery it still has. Before, the answer
    was `[]`, complete, exit 0: the cron recipe's "nothing failed"."""
    collect_once(sandbox, clock=LONG_AGO)
    for noisy in (2, 5):  # a flaky endpoint and a revoked key: failures of their own
        assert run("integration", "disable", str(noisy), "--yes").code == 0
    forgotten = add_failed_delivery(sandbox.db_path, integration_id=1)
    patch_many(server, 110, "after the collector stopped")  # 100+ deliveries, none failed
    still = server.get("/api/admin/addons/1/events", params={"limit": 100}).json()
    assert forgotten not in {d["id"] for d in still["integrationEvents"]}
    result = run("failures", "--since", "1h", "--fail-on-failures", "-o", "json")
    assert result.json == []
    said = answer(result.err)
    assert said["complete"] is False and "no longer lists every delivery" in said["unchecked"]
    assert result.code == 8
    table = run("failures", "--since", "1h", "--fail-on-failures", "-o", "table")
    assert table.code == 8 and "INCOMPLETE" in table.line


def test_one_failure_only_on_the_server_is_said_in_the_singular(run, sandbox):
    """Before: "(1 failures only there)"."""
    collect_once(sandbox, clock=LONG_AGO)
    add_failed_delivery(sandbox.db_path, integration_id=1)
    result = run("failures", "--since", "1m", "-o", "table")
    assert result.code == 0
    assert "the live server read too (1 failure only there)" in result.line
