"""The sandbox's segment routes answer as real Unleash's (6.10.1, 7.5.1, 8.2.0): the same
requests to both, the same statuses, error names and messages, the same keys in the answers
and in each event's data and preData."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.unleash

SEGMENTS = "/api/admin/segments"
WAITS = 150  # 30 s: reached only when an event never comes
IN = {"contextName": "userId", "operator": "IN", "values": ["1"]}


async def _walk(http: httpx.AsyncClient, name: str) -> list[Any]:
    """Create, refuse, read, replace, delete: what each answered (status, error name and
    message or the answer's keys) and the keys of each event's data and preData."""
    said: list[Any] = []

    def answer(response: httpx.Response) -> tuple[Any, ...]:
        if not response.content:
            return (response.status_code,)
        body = response.json()
        if response.is_success:
            return response.status_code, sorted(body)
        message = str(body.get("message")).replace(f'"{segment}"', '"ID"')
        return response.status_code, body.get("name"), message

    segment = -1

    made = await http.post(SEGMENTS, json={"name": name, "description": "d", "constraints": [IN]})
    said.append(answer(made))
    segment = made.json()["id"]
    said.append(answer(await http.post(SEGMENTS, json={"name": name, "constraints": []})))
    said.append(answer(await http.post(SEGMENTS, json={"name": name})))
    said.append(answer(await http.post(SEGMENTS, json={"name": "", "constraints": []})))
    said.append(answer(await http.get(f"{SEGMENTS}/{segment}")))
    said.append(answer(await http.get(f"{SEGMENTS}/{segment}/strategies")))
    body = {"name": name, "description": "e", "constraints": [{**IN, "values": ["2"]}]}
    said.append(answer(await http.put(f"{SEGMENTS}/{segment}", json=body)))
    said.append(answer(await http.put(f"{SEGMENTS}/99999999", json=body)))
    said.append(answer(await http.delete(f"{SEGMENTS}/{segment}")))
    said.append(answer(await http.get(f"{SEGMENTS}/{segment}")))
    for type_ in ("segment-created", "segment-updated", "segment-deleted"):
        params = {"query": name, "type": f"IS:{type_}", "limit": 10}
        recorded: list[dict[str, Any]] = []
        for _ in range(WAITS):  # real Unleash may record an event after answering
            found = await http.get("/api/admin/search/events", params=params)
            recorded = found.json()["events"]
            if recorded:
                break
            await asyncio.sleep(0.2)
        said += [(e["type"], sorted(e["data"] or {}), sorted(e["preData"] or {})) for e in recorded]
    return said


async def test_the_segment_routes_answer_alike(unleash_admin, sandbox_http) -> None:
    name = f"parity-segment-{uuid.uuid4().hex[:10]}"
    real = await _walk(unleash_admin, name)
    sandbox = await _walk(sandbox_http, name)
    assert sandbox == real
