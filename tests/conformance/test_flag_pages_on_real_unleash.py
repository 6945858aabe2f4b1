"""On a real Unleash, a page of flags read through the export route (`flag_pages.in_full`)
gives every flag's file entry exactly as its own route does: a flag with one strategy (a
segment, constraints, variants with a payload, a tag, a link where the
version has links), a child with three strategies put out of their creation order (one
disabled) and a dependency on variants, and a flag with none; in two environments. Only the
child is read by itself (its order), as `tests/flag_pages_check.py` asserts."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.flag_pages_check import check_page

pytestmark = pytest.mark.unleash
BASE = "/api/admin/projects/default/features"


def _ok(answer: httpx.Response) -> httpx.Response:
    assert answer.status_code < 300, f"{answer.request.method} {answer.request.url.path}: " \
        f"{answer.status_code} {answer.text[:300]}"  # fmt: skip
    return answer


def _make(http: httpx.Client, suffix: str, version: tuple[int, int, int]) -> list[str]:
    one, child, bare = f"fp-one-{suffix}", f"fp-child-{suffix}", f"fp-bare-{suffix}"
    member = {"contextName": "userId", "operator": "IN", "values": ["u1"]}
    wanted = {"name": f"fp-seg-{suffix}", "constraints": [member]}
    segment = _ok(http.post("/api/admin/segments", json=wanted)).json()
    for name in (one, child, bare):
        _ok(http.post(BASE, json={"name": name, "description": f"about {name}"}))
    _ok(http.post(f"{BASE}/{one}/environments/production/strategies", json={
        "name": "flexibleRollout", "title": "Half",
        "parameters": {"rollout": "50", "stickiness": "default", "groupId": one},
        "constraints": [{"contextName": "appName", "operator": "IN", "values": ["web"]}],
        "segments": [segment["id"]],
        "variants": [{"name": "blue", "weight": 1000, "weightType": "variable",
                      "stickiness": "default", "payload": {"type": "string", "value": "b"}}],
    }))  # fmt: skip
    _ok(http.post(f"/api/admin/features/{one}/tags", json={"type": "simple", "value": suffix}))
    if version >= (7, 1, 0):
        _ok(http.post(f"{BASE}/{one}/link", json={"url": f"https://example.com/{suffix}"}))
    env = f"{BASE}/{child}/environments/production/strategies"
    made = [
        _ok(http.post(env, json={"name": "default", "title": f"s{i}"})).json() for i in range(3)
    ]
    _ok(http.post(f"{env}/set-sort-order", json=[
        {"id": made[2]["id"], "sortOrder": 0}, {"id": made[0]["id"], "sortOrder": 1},
        {"id": made[1]["id"], "sortOrder": 2}]))  # fmt: skip
    _ok(
        http.put(
            f"{env}/{made[0]['id']}", json={"name": "default", "title": "s0", "disabled": True}
        )
    )
    _ok(http.post(f"{BASE}/{child}/dependencies", json={"feature": one, "variants": ["blue"]}))
    return [bare, child, one]


async def test_a_page_through_the_export_route_is_each_flag_read_alone(real_unleash, real_version):
    suffix = uuid.uuid4().hex[:8]
    with httpx.Client(base_url=real_unleash.url, headers={"Authorization": real_unleash.token},
                      timeout=30) as http:  # fmt: skip
        names = _make(http, suffix, real_version)
        try:
            seen = await check_page(real_unleash.url, real_unleash.token, "default", names,
                                    ["development", "production"])  # fmt: skip
        finally:
            for name in names:  # archived, not deleted (see the notes on 6.10.1)
                http.delete(f"{BASE}/{name}")
    assert seen["GET flag"] == 1  # the child alone: its three strategies' order
