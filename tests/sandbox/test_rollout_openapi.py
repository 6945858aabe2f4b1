"""The rollout routes answer what the sandbox's OpenAPI document says (issue 25)."""

from __future__ import annotations

import httpx

from tests.sandbox.schema_check import check

FEATURES = "/api/admin/projects/{projectId}/features"
ENV = f"{FEATURES}/{{featureName}}/environments/{{environment}}"


async def test_rollout_answers_match_their_schema(admin: httpx.AsyncClient) -> None:
    created = await admin.post("/api/admin/projects/default/features", json={"name": "doc-me"})
    check(created, FEATURES, "POST")
    for url in ("/api/admin/strategies", "/api/admin/context", "/api/admin/segments"):
        check(await admin.get(url), url, "GET")
    base = "/api/admin/projects/default/features/doc-me/environments/production"
    body = {
        "name": "flexibleRollout",
        "segments": [1],
        "constraints": [{"contextName": "userId", "operator": "IN", "values": ["1"]}],
        "variants": [{"name": "a", "weight": 0, "weightType": "variable", "stickiness": "default"}],
    }
    added = await admin.post(f"{base}/strategies", json=body)
    check(added, f"{ENV}/strategies", "POST")
    check(await admin.get(f"{base}/strategies"), f"{ENV}/strategies", "GET")
    one = f"{base}/strategies/{added.json()['id']}"
    check(await admin.put(one, json={"name": "default"}), f"{ENV}/strategies/{{id}}", "PUT")
    check(await admin.get(f"{base}/variants"), f"{ENV}/variants", "GET")
    assert (await admin.post(f"{base}/on")).status_code == 200
    play = await admin.post(
        "/api/admin/playground",
        json={"environment": "production", "context": {"appName": "a", "userId": "1"}},
    )
    check(play, "/api/admin/playground", "POST")
    check(await admin.get("/api/client/features"), "/api/client/features", "GET")
    refused = await admin.post("/api/admin/projects/default/features", json={"name": "doc-me"})
    assert refused.status_code == 409
    check(refused, FEATURES, "POST")
