"""A flag's variants in one environment: deprecated by real Unleash, so writable only where
the flag has some already; weights fixed; one event per write (issue 25)."""

from __future__ import annotations

import sqlite3

import httpx
from starlette.applications import Starlette

from tests.sandbox.conftest import events_of


def _flag_with_variants(db_path: object) -> tuple[str, str, str]:
    conn = sqlite3.connect(str(db_path))
    try:
        return conn.execute(
            "SELECT f.project, f.name, fe.environment FROM features f JOIN feature_environments fe"
            " ON fe.feature = f.name WHERE fe.variants != '[]' AND f.archived_at IS NULL"
            " AND f.project = 'default' ORDER BY f.name LIMIT 1"
        ).fetchone()
    finally:
        conn.close()


async def test_a_flag_without_environment_variants_cannot_get_any(admin: httpx.AsyncClient) -> None:
    assert (
        await admin.post("/api/admin/projects/default/features", json={"name": "plain"})
    ).status_code == 201
    url = "/api/admin/projects/default/features/plain/environments/production/variants"
    assert (await admin.get(url)).json() == {"version": 1, "variants": []}
    refused = await admin.put(url, json=[{"name": "a", "weight": 1000}])
    assert refused.status_code == 403
    assert refused.json()["name"] == "InvalidOperationError"
    assert (
        await events_of(admin, feature="plain", type="feature-environment-variants-updated") == []
    )


async def test_put_and_patch_fix_weights_and_record_before_and_after(
    admin: httpx.AsyncClient, sandbox_app: Starlette
) -> None:
    project, name, env = _flag_with_variants(sandbox_app.state.db_path)
    url = f"/api/admin/projects/{project}/features/{name}/environments/{env}/variants"
    before = (await admin.get(url)).json()["variants"]
    put = await admin.put(
        url,
        json=[
            {"name": "red", "weight": 100, "weightType": "fix", "stickiness": "userId"},
            {"name": "blue", "weight": 1},
            {"name": "green", "weight": 1, "payload": {"type": "json", "value": '{"a": 1}'}},
        ],
    )
    assert put.status_code == 200, put.text
    variants = put.json()["variants"]
    assert [(v["name"], v["weight"], v["stickiness"]) for v in variants] == [
        ("blue", 450, "default"), ("green", 450, "default"), ("red", 100, "userId")
    ]  # fmt: skip
    event = (await events_of(admin, feature=name, type="feature-environment-variants-updated"))[0]
    assert event["environment"] == env
    assert (event["preData"], event["data"]) == ({"variants": before}, {"variants": variants})
    patched = await admin.patch(url, json=[{"op": "remove", "path": "/2"}])
    assert [v["name"] for v in patched.json()["variants"]] == ["blue", "green"]
    assert [v["weight"] for v in patched.json()["variants"]] == [500, 500]


async def test_bad_variants_are_400(admin: httpx.AsyncClient, sandbox_app: Starlette) -> None:
    project, name, env = _flag_with_variants(sandbox_app.state.db_path)
    url = f"/api/admin/projects/{project}/features/{name}/environments/{env}/variants"
    for body in (
        [{"name": "a", "weight": 1001}],
        [{"name": "a", "weight": 10}, {"name": "a", "weight": 10}],
        [{"name": "a", "weight": 1001, "weightType": "fix"}, {"name": "b", "weight": 1}],
        [{"name": "a", "weight": 1, "payload": {"type": "json", "value": "{nope"}}],
    ):
        assert (await admin.put(url, json=body)).status_code == 400, body
