"""`flagtui feature stale PROJECT`: the stale and potentially stale flags, oldest first, as the
sandbox has them; the list feeds `feature archive --stdin` (the monthly clean-up)."""

from __future__ import annotations

import io

from .helpers import PROJECT, a_live_flag, stage_and_environments


def stale_at_server(server) -> dict[str, bool]:
    """What the server's state filter finds: each flag's name and whether it is marked stale
    (else it is only potentially stale, which no record carries)."""
    params = {"project": f"IS:{PROJECT}", "state": "IS_ANY_OF:stale,potentially-stale",
              "limit": 1000}  # fmt: skip
    found = server.get("/api/admin/search/features", params=params).json()["features"]
    return {f["name"]: f["stale"] for f in found}


def test_lists_what_the_server_calls_stale_oldest_first_with_what_a_cleanup_needs(run, server):
    fresh = a_live_flag(server, 0)
    server.patch(
        f"/api/admin/projects/{PROJECT}/features/{fresh}",
        json=[{"op": "replace", "path": "/stale", "value": True}],
    ).raise_for_status()
    result = run("feature", "stale", PROJECT, "-o", "json")
    assert result.code == 0, result.err
    rows = {row["name"]: row for row in result.json}
    at_server = stale_at_server(server)
    assert set(rows) == set(at_server) and fresh in rows
    assert rows[fresh]["state"] == "stale"
    assert not all(at_server.values())  # some are only potentially stale
    for name, stale in at_server.items():
        assert rows[name]["state"] == ("stale" if stale else "potentially stale")
    ages = [row["ageDays"] for row in result.json]
    assert ages == sorted(ages, reverse=True)  # oldest first
    types = {
        t["id"]: t["lifetimeDays"] for t in server.get("/api/admin/feature-types").json()["types"]
    }
    for row in result.json:
        assert row["lifetimeDays"] == types[row["type"]]
        assert set(row["lastSeenIn"]) >= set(row["onInProduction"])


def test_its_names_feed_a_bulk_archive(run, server, monkeypatch):
    listed = run("feature", "stale", PROJECT, "-o", "json").json
    names = [row["name"] for row in listed[:2]]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(names) + "\n"))
    archived = run("feature", "archive", PROJECT, "--stdin", "--yes", "-o", "json")
    assert archived.code == 0, archived.err
    assert all(stage_and_environments(server, name)[0] == "archived" for name in names)
    assert not set(names) & {row["name"] for row in run("feature", "stale", PROJECT).json}
