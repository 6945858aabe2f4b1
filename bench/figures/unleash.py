"""7. The sandbox against real Unleash (loopback only): requests per second, side by side."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

import httpx

from bench.harness import Sandbox, log


def _loopback(url: str) -> bool:

    host = urlparse(url).hostname or ""
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


async def _rps(
    url: str, token: str, make: Callable[[int], tuple[str, str, Any]], count: int, limit_s: float
) -> dict[str, Any]:
    headers = {"Authorization": token, "Content-Type": "application/json"}
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits) as http:
        for i in range(16):  # open the connections first
            method, path, _body = make(i)
            if method == "GET":
                await http.get(path)
        issued = 0
        errors = 0
        deadline = time.perf_counter() + limit_s

        async def worker() -> int:
            nonlocal issued, errors
            done = 0
            while issued < count and time.perf_counter() < deadline:
                i = issued
                issued += 1
                method, path, body = make(i)
                r = await http.request(method, path, json=body)
                if r.status_code >= 400:
                    errors += 1
                done += 1
            return done

        t0 = time.perf_counter()
        done = sum(await asyncio.gather(*(worker() for _ in range(16))))
        elapsed = time.perf_counter() - t0
    return {"rps": done / elapsed, "requests": done, "errors": errors, "s": elapsed}


async def _compare(sb: Sandbox, count: int, limit_s: float) -> dict[str, Any]:
    unleash_url = os.environ["UNLEASH_URL"].rstrip("/")
    unleash_token = os.environ["UNLEASH_API_TOKEN"]
    sandbox_project = sb.get("/api/admin/projects")["projects"][0]["id"]
    sandbox_feature = sb.first_feature()
    name = f"flagtui-bench-{os.getpid()}"
    headers = {"Authorization": unleash_token, "Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=unleash_url, headers=headers) as http:
        r = await http.post(
            "/api/admin/projects/default/features", json={"name": name, "type": "release"}
        )
        r.raise_for_status()
        try:
            ops: dict[str, dict[str, Callable[[int], tuple[str, str, Any]]]] = {
                "event_search": {
                    "sandbox": lambda i: ("GET", "/api/admin/search/events?limit=50", None),
                    "unleash": lambda i: ("GET", "/api/admin/search/events?limit=50", None),
                },
                "feature_detail": {
                    "sandbox": lambda i: (
                        "GET",
                        f"/api/admin/projects/{sandbox_project}/features/{sandbox_feature}",
                        None,
                    ),
                    "unleash": lambda i: (
                        "GET",
                        f"/api/admin/projects/default/features/{name}",
                        None,
                    ),
                },
                "patch": {
                    "sandbox": lambda i: (
                        "PATCH",
                        f"/api/admin/projects/{sandbox_project}/features/{sandbox_feature}",
                        [{"op": "replace", "path": "/description", "value": f"bench {i}"}],
                    ),
                    "unleash": lambda i: (
                        "PATCH",
                        f"/api/admin/projects/default/features/{name}",
                        [{"op": "replace", "path": "/description", "value": f"bench {i}"}],
                    ),
                },
            }
            out: dict[str, Any] = {}
            for op, sides in ops.items():
                s = await _rps(sb.url, sb.token, sides["sandbox"], count, limit_s)
                u = await _rps(unleash_url, unleash_token, sides["unleash"], count, limit_s)
                out[op] = {
                    "sandbox_rps": round(s["rps"], 1),
                    "unleash_rps": round(u["rps"], 1),
                    "ratio": round(s["rps"] / u["rps"], 3),
                    "sandbox_errors": s["errors"],
                    "unleash_errors": u["errors"],
                }
                log(f"rps {op}: sandbox {s['rps']:.0f}/s, unleash {u['rps']:.0f}/s")
        finally:
            await http.delete(f"/api/admin/projects/default/features/{name}")
            await http.delete(f"/api/admin/archive/{name}")
    return out


def bench_unleash(large: Sandbox, count: int, notes: dict[str, str]) -> dict[str, Any]:
    url = os.environ.get("UNLEASH_URL")
    if not url or not os.environ.get("UNLEASH_API_TOKEN"):
        notes["sandbox_vs_unleash_rps"] = "UNLEASH_URL/UNLEASH_API_TOKEN not set: not measured"
        return {}
    if not _loopback(url):
        notes["sandbox_vs_unleash_rps"] = f"{url} is not a loopback address: not measured"
        return {}
    try:
        httpx.get(url.rstrip("/") + "/health", timeout=3).raise_for_status()
    except httpx.HTTPError as exc:
        notes["sandbox_vs_unleash_rps"] = f"real Unleash at {url} not reachable ({exc})"
        return {}
    detail = asyncio.run(_compare(large, count, 30.0))
    return {
        "sandbox_vs_unleash_rps": min(d["ratio"] for d in detail.values()),
        "sandbox_vs_unleash_rps_detail": detail,
    }
