"""What the collector's metrics count from the archive (`archive.tallies`), on both back ends,
against what the sandbox itself holds: deliveries by state, the newest success and failure,
gaps, deleted integrations left out."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

import httpx

from flagtui.archive.tallies import tally
from flagtui.triage.source import aware

from .conftest import patch_many


def aware_time(delivery: dict) -> datetime:
    return aware(datetime.fromisoformat(delivery["createdAt"].replace("Z", "+00:00")))


def server_deliveries(sandbox) -> list[dict]:
    found = []
    with httpx.Client(
        base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}, timeout=30
    ) as http:
        for addon in http.get("/api/admin/addons").json()["addons"]:
            offset = 0
            while page := http.get(
                f"/api/admin/addons/{addon['id']}/events",
                params={"limit": 100, "offset": offset},
            ).json()["integrationEvents"]:
                found += page
                offset += len(page)
    return found


async def test_counts_and_times_are_the_servers(sandbox, collector, archive):
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)  # the server keeps all
    patch_many(sandbox, 3, "tallies")
    await collector.poll()
    counted = tally(archive)
    held = server_deliveries(sandbox)
    states = Counter((d["integrationId"], d["state"]) for d in held)
    by_id = {t.ref.id: t for t in counted.integrations}
    assert {(i, s): n for i in by_id for s, n in by_id[i].deliveries.items() if n} == states
    for integration_id, found in by_id.items():
        mine = [d for d in held if d["integrationId"] == integration_id]
        ok = [aware_time(d) for d in mine if d["state"] == "success"]
        bad = [aware_time(d) for d in mine if d["state"] != "success"]
        assert found.last_success == (max(ok) if ok else None)
        assert found.last_failure == (max(bad) if bad else None)
        assert found.gaps == 0
        assert set(found.deliveries) >= {"success", "failed", "successWithErrors"}
    assert counted.collected_until is not None


async def test_gaps_are_counted_per_integration(sandbox, collector, archive):
    patch_many(sandbox, 2, "before")
    await collector.poll()
    patch_many(sandbox, 40, "burst")  # more than the server keeps: gaps on 1, 2 and 5
    await collector.poll()
    gaps = {t.ref.id: t.gaps for t in tally(archive).integrations}
    assert {i for i, n in gaps.items() if n} == {1, 2, 5}
    assert {gaps[1], gaps[2], gaps[5]} == {1}


async def test_a_deleted_integration_is_left_out(sandbox, collector, archive):
    await collector.poll()
    assert 6 in {t.ref.id for t in tally(archive).integrations}
    with httpx.Client(
        base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}, timeout=30
    ) as http:
        http.delete("/api/admin/addons/6").raise_for_status()  # the sandbox: no real Unleash
    await collector.poll()
    assert 6 not in {t.ref.id for t in tally(archive).integrations}
