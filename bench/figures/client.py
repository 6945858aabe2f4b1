"""6. Client overhead: the admin client reading 10,000 events, against plain httpx + json."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from bench.harness import Sandbox, median, rnd


async def _client_overhead(sb: Sandbox, runs: int, total: int) -> dict[str, Any]:
    from flagtui.api import AdminClient

    client = AdminClient(sb.url, sb.token, profile="bench")
    await client.connect()
    route = client.events.route or "post"  # the route the client will use, for a fair baseline
    raw = httpx.AsyncClient(base_url=sb.url, headers={"Authorization": sb.token})

    async def with_client() -> int:
        n, cursor = 0, None
        while n < total:
            page = await client.events.search(limit=100, cursor=cursor)
            n += len(page.events)
            cursor = page.next_cursor
            if cursor is None:
                break
        return n

    async def plain() -> int:
        n, cursor = 0, 0
        while n < total:
            if route == "get":
                r = await raw.get("/api/admin/search/events", params={"limit": 100, "offset": n})
                events = json.loads(r.content)["events"]
            else:
                body: dict[str, Any] = {"limit": 100}
                if cursor:
                    body["offset"] = cursor
                r = await raw.post("/api/admin/events/search", json=body)
                events = json.loads(r.content)["events"]
                cursor = events[-1]["id"] - 1
            n += len(events)
        return n

    tc: list[float] = []
    tp: list[float] = []
    await with_client()  # warm-up (also warms the server's page cache)
    await plain()
    for i in range(runs):
        for fn, xs in (
            ((with_client, tc), (plain, tp)) if i % 2 == 0 else ((plain, tp), (with_client, tc))
        ):
            t0 = time.perf_counter()
            n = await fn()
            xs.append(time.perf_counter() - t0)
            assert n >= total, n
    # Where the client's extra time goes: validation alone, on bytes already in memory.
    body = {"limit": 100}
    r = (
        await raw.post("/api/admin/events/search", json=body)
        if route != "get"
        else await raw.get("/api/admin/search/events", params={"limit": 100})
    )
    content = r.content
    from flagtui.api.wire import EventSearchAnswer, adapter

    answer = adapter(EventSearchAnswer)
    t0 = time.perf_counter()
    for _ in range(100):
        answer.validate_json(content)
    validate = (time.perf_counter() - t0) / 100
    t0 = time.perf_counter()
    for _ in range(100):
        json.loads(content)
    loads = (time.perf_counter() - t0) / 100
    await raw.aclose()
    await client.aclose()
    c, p = median(tc), median(tp)
    return {
        "client_overhead_ratio": rnd(c / p if c and p else None),
        "client_overhead_detail": {
            "events": total,
            "route": route,
            "client_s": rnd(c),
            "plain_httpx_json_s": rnd(p),
            "client_runs_s": [rnd(x) for x in tc],
            "plain_runs_s": [rnd(x) for x in tp],
            "per_page_validate_json_ms": rnd(1000 * validate, 3),
            "per_page_json_loads_ms": rnd(1000 * loads, 3),
            "page_bytes": len(content),
        },
    }


def bench_client(large: Sandbox, runs: int) -> dict[str, Any]:
    return asyncio.run(_client_overhead(large, runs, 10_000))
