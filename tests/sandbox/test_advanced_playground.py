"""`POST /api/admin/playground/advanced` answers as real Unleash does (its source, 5.2 to 8.x,
and its answers on 6.10.1, 7.5.1 and 8.2.0): every combination of the comma-separated values,
each the one-context playground's answer for it, and real Unleash's two limits: 15,000
evaluations a request (environments times flags times contexts) and bodies of 100 kB."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from flagtui.sandbox.playground_advanced import LIMIT_ENV

ADVANCED = "/api/admin/playground/advanced"
HOSTILE_FLAGS = 5  # the hostile project's flags (demo_tables)


def _body(context: dict[str, Any], project: str = "default") -> dict[str, Any]:
    return {"environments": ["production"], "projects": [project], "context": context}


async def test_each_combination_is_the_one_context_answer(sandbox_http: httpx.AsyncClient) -> None:
    context = {"appName": "adv", "userId": "u-1,u-2,u-3", "properties": {"tenantId": "acme,x"}}
    answer = await sandbox_http.post(ADVANCED, json=_body(context))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == {"input", "features"} and body["input"]["context"] == context
    listed = (
        await sandbox_http.post("/api/admin/playground", json=one(context, "u-1", "acme"))
    ).json()
    assert [f["name"] for f in body["features"]] == [f["name"] for f in listed["features"]]
    # field by field in the body's order, the properties flat, appName last (real Unleash's)
    combinations = [
        {"userId": u, "tenantId": t, "appName": "adv"}
        for u in ("u-1", "u-2", "u-3")
        for t in ("acme", "x")
    ]
    for flag in body["features"]:
        entries = flag["environments"]["production"]
        assert [e["context"] for e in entries] == combinations
        assert {(e["environment"], e["projectId"]) for e in entries} == {("production", "default")}
    on = 0
    for i, c in enumerate(combinations):
        alone = await sandbox_http.post(
            "/api/admin/playground", json=one(context, c["userId"], c["tenantId"])
        )
        for same, flag in zip(alone.json()["features"], body["features"], strict=True):
            entry = flag["environments"]["production"][i]
            assert {k: entry[k] for k in same} == same  # the one-context answer, and more
            on += entry["isEnabled"]
    assert on, "some flag is on for some combination"


def one(context: dict[str, Any], user: str, tenant: str) -> dict[str, Any]:
    single = {"appName": context["appName"], "userId": user, "properties": {"tenantId": tenant}}
    return {"environment": "production", "projects": ["default"], "context": single}


async def test_a_field_that_is_no_string_is_left_out_with_a_warning(
    sandbox_http: httpx.AsyncClient,
) -> None:
    context = {"appName": "adv", "userId": "u-1", "tenantId": 5, "region": {"a": 1}}
    answer = await sandbox_http.post(ADVANCED, json=_body(context, "hostile"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["warnings"] == {"invalidContextProperties": ["tenantId", "region"]}
    entry = answer.json()["features"][0]["environments"]["production"][0]
    assert entry["context"] == {"userId": "u-1", "appName": "adv"}


async def test_more_than_15000_evaluations_are_refused_in_real_unleashs_words(
    sandbox_http: httpx.AsyncClient,
) -> None:
    """3,000 users of 5 flags is the limit; one more is refused, with the numbers it counted."""
    users = ",".join(f"u-{i}" for i in range(1, 3002))
    refused = await sandbox_http.post(
        ADVANCED, json=_body({"appName": "a", "userId": users}, "hostile")
    )
    assert refused.status_code == 400, refused.text
    assert refused.json()["message"].endswith(
        "Rejecting evaluation as it would generate 15005 combinations exceeding 15000 limit."
        " Please reduce the number of selected environments (1), features (5), context field"
        " combinations (3001)."
    )
    limit = users.rsplit(",", 1)[0]
    taken = await sandbox_http.post(
        ADVANCED, json=_body({"appName": "a", "userId": limit}, "hostile")
    )
    assert taken.status_code == 200, taken.text[:300]
    entries = [len(f["environments"]["production"]) for f in taken.json()["features"]]
    assert entries == [3000] * HOSTILE_FLAGS


async def test_the_limit_is_the_environments_and_may_be_set(
    sandbox_http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As real Unleash's `advancedPlayground` flag sets it at runtime: read at each request."""
    monkeypatch.setenv(LIMIT_ENV, "10")
    two = {"appName": "a", "userId": "u-1,u-2"}
    assert (await sandbox_http.post(ADVANCED, json=_body(two, "hostile"))).status_code == 200
    three = {"appName": "a", "userId": "u-1,u-2,u-3"}
    refused = await sandbox_http.post(ADVANCED, json=_body(three, "hostile"))
    assert refused.status_code == 400 and "exceeding 10 limit" in refused.json()["message"]
    both = {**_body(two, "hostile"), "environments": ["production", "development"]}
    assert (await sandbox_http.post(ADVANCED, json=both)).status_code == 400  # 2 x 5 x 2 = 20


async def test_a_body_over_100_kb_is_refused(sandbox_http: httpx.AsyncClient) -> None:
    """express's default limit, as on real Unleash (its one-context playground takes 1 MiB)."""
    padding = "x" * (100 * 1024)
    context = {"appName": "a", "userId": "u-1", "properties": {"pad": padding}}
    answer = await sandbox_http.post(ADVANCED, json=_body(context, "hostile"))
    assert answer.status_code == 413 and answer.json()["name"] == "PayloadTooLargeError"
    context["properties"]["pad"] = padding[:100_000]
    assert (await sandbox_http.post(ADVANCED, json=_body(context, "hostile"))).status_code == 200


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"projects": "*", "context": {"appName": "a"}}, '"environments" is required'),
        ({"environments": [], "context": {"appName": "a"}}, '"environments" is required'),
        ({"environments": ["pro duction"], "context": {"appName": "a"}}, '"environments"'),
        ({"environments": ["production"]}, '"context" is required'),
        ({"environments": ["production"], "context": {"appName": ""}}, "context.appName"),
    ],
)
async def test_a_body_real_unleash_refuses_is_refused(
    sandbox_http: httpx.AsyncClient, body: dict[str, Any], said: str
) -> None:
    answer = await sandbox_http.post(ADVANCED, json=body)
    assert answer.status_code == 400 and said in answer.json()["message"], answer.text
