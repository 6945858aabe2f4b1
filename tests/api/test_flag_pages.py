"""A page of flags read through the export route (`flag_pages.in_full`) is the flags read one
by one, on the sandbox's demo data (flags with none, one and two strategies an environment,
variants, tags, dependencies, segments), and costs one export an environment plus one read of
each flag whose strategies' order the export does not say."""

from __future__ import annotations

import httpx

from flagtui.api import AdminClient
from flagtui.fleet.flag_pages import in_full
from tests.flag_pages_check import check_page


async def test_a_page_read_through_the_export_route_is_the_flags_read_one_by_one(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        names = sorted(f.name for f in await client.features.list("payments"))[:60]
        envs = sorted(e.name for e in await client.environments.list("payments"))
    assert len(names) == 60 and len(envs) >= 2
    seen = await check_page(sandbox.url, sandbox.admin_token, "payments", names, envs)
    assert 0 < seen["GET flag"] < len(names)  # the demo data has flags of both kinds


async def test_unknown_and_archived_names_are_left_out(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        live = sorted(f.name for f in await client.features.list("payments"))[:2]
        await client.features.archive("payments", live[1])
        got = await in_full(client, "payments", [*live, "no-such-flag"], ["production"])
    assert [f.name for f in got] == live[:1]


def test_the_route_lists_no_sort_order_and_records_an_event(sandbox):
    with httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}) as h:
        rows = h.get("/api/admin/projects/payments/features").json()["features"]
        full = [h.get(f"/api/admin/projects/payments/features/{r['name']}").json() for r in rows]
        two = next(f for f in full for e in f["environments"] if len(e["strategies"]) > 1)
        env = next(e for e in two["environments"] if len(e["strategies"]) > 1)
        before = h.get("/api/admin/search/events", params={"limit": 1}).json()["total"]
        body = {"features": [two["name"]], "environment": env["name"]}
        answer = h.post("/api/admin/features-batch/export", json=body)
        after = h.get("/api/admin/search/events", params={"limit": 1}).json()
        refused = h.post("/api/admin/features-batch/export", json={"features": [two["name"]]})
    assert answer.status_code == 200
    listed = answer.json()["featureStrategies"]
    assert [s["id"] for s in listed] == [s["id"] for s in reversed(env["strategies"])]
    assert all("sortOrder" not in s for s in listed)
    assert after["total"] == before + 1 and after["events"][0]["type"] == "features-exported"
    assert refused.status_code == 400 and "environment" in refused.text
