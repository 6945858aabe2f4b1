"""Several flags in one command on real Unleash (issue 27), behind a loopback gateway that logs
every request that reaches the server: 20 flags and one that does not exist, archived in one
plan. `--dry-run` first: only reads reach the server, and no event is recorded. Then the plan
goes in one batch request (`POST /projects/:p/archive`); each of the 20 records exactly one
`feature-archived` and reaches the `archived` stage; the missing one is reported by name,
refused, while the others are done. Then the environment switch and the stale mark by their
batch routes; one flag archived between the plan and the send refuses the whole batch on the
server (all or none), and the others are still switched, each proven by a read. Flags are new
(`bulk-…`) and stay archived, never deleted."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from gateway import Gateway
from real_intent import (
    PROJECT,
    flag_event_types_since,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)

from flagtui.api import AdminClient
from flagtui.api.bulk_changes import Change

pytestmark = pytest.mark.unleash

COUNT = 20
READS = ("GET",)


def new_flags(admin, count: int) -> list[str]:
    run = uuid.uuid4().hex[:8]
    names = [f"bulk-{run}-{i:02d}" for i in range(count)]
    for name in names:
        body = {"name": name, "type": "release"}
        created = admin.post(f"/api/admin/projects/{PROJECT}/features", json=body)
        assert created.status_code in (200, 201), created.text
    for name in names:  # written after the answer: an archive before it would be overwritten
        wait_for_stage(admin, PROJECT, name, "initial")
    return names


def test_twenty_flags_archived_in_one_plan_each_with_its_event(
    flagtui, admin, real_unleash, monkeypatch
):
    names = new_flags(admin, COUNT)
    missing = f"{names[0][:-3]}-missing"
    mark = newest_event_id(admin)
    asked = "\n".join([*names, missing]) + "\n"

    with Gateway(real_unleash.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)  # its token: UNLEASH_API_TOKEN
        monkeypatch.setattr("sys.stdin", io.StringIO(asked))
        plan = flagtui("feature", "archive", PROJECT, "--stdin", "--dry-run", "-o", "json")
        dry_run_sent = list(gateway.forwarded)
        monkeypatch.setattr("sys.stdin", io.StringIO(asked))
        result = flagtui("feature", "archive", PROJECT, "--stdin", "--yes", "-o", "json")
        sent = gateway.forwarded[len(dry_run_sent) :]

    assert plan.code == 4, plan.err  # the missing flag: refused at its read, even in the plan
    assert dry_run_sent and all(method in READS for method, _, _ in dry_run_sent), dry_run_sent
    planned = [row for row in json.loads(plan.out) if row["outcome"] == "planned"]
    assert [row["featureName"] for row in planned] == names
    assert {row["path"] for row in planned} == {f"/api/admin/projects/{PROJECT}/archive"}

    assert result.code == 4, result.err
    writes = [(method, path, status) for method, path, status in sent if method not in READS]
    assert writes == [("POST", f"/api/admin/projects/{PROJECT}/archive", 202)]
    rows = {row["featureName"]: row for row in json.loads(result.out)}
    assert rows[missing]["outcome"] == "refused"
    assert rows[missing]["error"]["kind"] == "not-found"
    for name in names:
        assert rows[name]["outcome"] == "done", rows[name]
        assert rows[name]["detail"] == "now archived"  # proven by reading the archived flags
        wait_for_flag_events(admin, name, mark, [("feature-archived", None)])
        wait_for_stage(admin, PROJECT, name, "archived")
        assert flag_event_types_since(admin, name, mark) == [("feature-archived", None)]


async def test_a_batch_refused_for_one_archived_flag_switches_the_others(admin, real_unleash):
    names = new_flags(admin, 5)
    mark = newest_event_id(admin)
    with Gateway(real_unleash.url) as gateway:
        async with AdminClient(gateway.url, real_unleash.token) as client:
            await client.connect()
            plan = await client.bulk.plan(PROJECT, Change("enable", "development"), names)
            assert plan.to_send == names
            assert admin.delete(f"/api/admin/projects/{PROJECT}/features/{names[2]}").is_success
            # archived since the plan: said as a change first; sent anyway, the batch is refused
            outcomes = {o.feature: o for o in await client.bulk.send(plan, anyway=True)}
    batch = f"/api/admin/projects/{PROJECT}/bulk_features/environments/development/on"
    writes = [(m, p, s) for m, p, s in gateway.forwarded if m not in READS]
    assert writes[0] == ("POST", batch, 400)  # real Unleash: all or none, refused for one
    assert outcomes[names[2]].outcome == "refused"
    assert "archived" in outcomes[names[2]].detail
    for name in [n for n in names if n != names[2]]:
        assert outcomes[name].outcome == "done", outcomes[name]
        wait_for_flag_events(admin, name, mark, [("feature-environment-enabled", "development")])
    assert ("feature-environment-enabled", "development") not in flag_event_types_since(
        admin, names[2], mark
    )
    for name in names:
        admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")


def test_flags_marked_stale_by_the_batch_route_each_with_its_event(flagtui, admin):
    names = new_flags(admin, 5)
    mark = newest_event_id(admin)
    result = flagtui("feature", "mark-stale", PROJECT, *names, "-o", "json")
    assert result.code == 0, result.err
    assert [row["outcome"] for row in json.loads(result.out)] == ["done"] * 5
    again = flagtui("feature", "mark-stale", PROJECT, *names, "-o", "json")
    assert [row["outcome"] for row in json.loads(again.out)] == ["unchanged"] * 5
    for name in names:
        wait_for_flag_events(admin, name, mark, [("feature-stale-on", None)])
        assert flag_event_types_since(admin, name, mark) == [("feature-stale-on", None)]
        admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")
