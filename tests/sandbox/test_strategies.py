"""A flag's strategies in one environment: the routes, their events and their 400s (issue 25)."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.conftest import events_of

FEATURE = "/api/admin/projects/default/features/rollout-me"
STRATEGIES = f"{FEATURE}/environments/production/strategies"


@pytest.fixture
async def flag(admin: httpx.AsyncClient) -> str:
    created = await admin.post("/api/admin/projects/default/features", json={"name": "rollout-me"})
    assert created.status_code == 201
    return "rollout-me"


async def _types(admin: httpx.AsyncClient, flag: str) -> list[str]:
    return [e["type"] for e in reversed(await events_of(admin, feature=flag))]


async def test_add_fills_flexible_rollout_defaults_and_records_the_strategy(
    admin: httpx.AsyncClient, flag: str
) -> None:
    added = await admin.post(
        STRATEGIES, json={"name": "flexibleRollout", "parameters": {"rollout": 10}}
    )
    assert added.status_code == 200
    strategy = added.json()
    assert strategy["parameters"] == {"rollout": "10", "stickiness": "default", "groupId": flag}
    assert strategy["sortOrder"] == 0
    event = (await events_of(admin, feature=flag, type="feature-strategy-add"))[0]
    assert event["environment"] == "production"
    assert event["data"] == strategy
    listed = (await admin.get(STRATEGIES)).json()
    assert listed == [strategy]
    assert (await admin.get(f"{STRATEGIES}/{strategy['id']}")).json() == strategy
    feature = (await admin.get(FEATURE)).json()
    production = next(e for e in feature["environments"] if e["name"] == "production")
    assert production["enabled"] is False  # adding does not switch on
    assert [s["id"] for s in production["strategies"]] == [strategy["id"]]


async def test_put_replaces_and_records_before_and_after(
    admin: httpx.AsyncClient, flag: str
) -> None:
    body = {
        "name": "flexibleRollout",
        "title": "Beta",
        "constraints": [{"contextName": "tenantId", "operator": "IN", "values": ["acme"]}],
    }
    before = (await admin.post(STRATEGIES, json=body)).json()
    put = await admin.put(
        f"{STRATEGIES}/{before['id']}",
        json={"name": "flexibleRollout", "parameters": {"rollout": "50", "groupId": "g"}},
    )
    assert put.status_code == 200
    after = put.json()
    assert after["constraints"] == []  # replaced: absent means none
    assert after["title"] == "Beta"  # absent: kept
    assert after["parameters"] == {"rollout": "50", "stickiness": "default", "groupId": "g"}
    event = (await events_of(admin, feature=flag, type="feature-strategy-update"))[0]
    assert (event["preData"], event["data"]) == (before, after)


async def test_patch_disable_of_the_last_active_strategy_switches_the_environment_off(
    admin: httpx.AsyncClient, flag: str
) -> None:
    strategy = (await admin.post(STRATEGIES, json={"name": "default"})).json()
    assert (await admin.post(f"{FEATURE}/environments/production/on")).status_code == 200
    patched = await admin.patch(
        f"{STRATEGIES}/{strategy['id']}",
        json=[{"op": "replace", "path": "/disabled", "value": True}],
    )
    assert patched.status_code == 200
    assert patched.json()["disabled"] is True
    feature = (await admin.get(FEATURE)).json()
    assert not next(e for e in feature["environments"] if e["name"] == "production")["enabled"]
    types = await _types(admin, flag)
    assert types[-2:] == ["feature-strategy-update", "feature-environment-disabled"]


async def test_reorder_and_remove(admin: httpx.AsyncClient, flag: str) -> None:
    first = (await admin.post(STRATEGIES, json={"name": "default"})).json()
    second = (await admin.post(STRATEGIES, json={"name": "flexibleRollout"})).json()
    assert second["sortOrder"] == 1
    order = [{"id": second["id"], "sortOrder": 0}, {"id": first["id"], "sortOrder": 1}]
    assert (await admin.post(f"{STRATEGIES}/set-sort-order", json=order)).status_code == 200
    assert [s["id"] for s in (await admin.get(STRATEGIES)).json()] == [second["id"], first["id"]]
    event = (await events_of(admin, feature=flag, type="strategy-order-changed"))[0]
    assert event["preData"] == {"strategyIds": [first["id"], second["id"]]}
    assert event["data"] == {"strategyIds": [second["id"], first["id"]]}
    removed = await admin.delete(f"{STRATEGIES}/{first['id']}")
    assert (removed.status_code, removed.content) == (200, b"")
    assert [s["id"] for s in (await admin.get(STRATEGIES)).json()] == [second["id"]]
    event = (await events_of(admin, feature=flag, type="feature-strategy-remove"))[0]
    assert event["preData"] == {**first, "sortOrder": 1} and event["data"] is None
    again = await admin.delete(f"{STRATEGIES}/{first['id']}")
    assert again.status_code == 404  # as real Unleash 8.2.0 answers
    unknown = [{"id": "nope", "sortOrder": 0}]
    assert (await admin.post(f"{STRATEGIES}/set-sort-order", json=unknown)).status_code == 400


async def test_strategy_variants_get_their_weights_fixed(
    admin: httpx.AsyncClient, flag: str
) -> None:
    variants = [
        {"name": "b", "weight": 0, "weightType": "variable", "stickiness": "userId"},
        {"name": "a", "weight": 200, "weightType": "fix", "stickiness": "userId"},
        {"name": "c", "weight": 0, "weightType": "variable", "stickiness": "userId"},
    ]
    added = await admin.post(STRATEGIES, json={"name": "default", "variants": variants})
    assert [(v["name"], v["weight"]) for v in added.json()["variants"]] == [
        ("a", 200), ("b", 400), ("c", 400)
    ]  # fmt: skip


# As 6.10.1, 7.5.1 and 8.2.0 store them (read on each: ICU's collation, lowercase first on a
# tie of case, punctuation before digits before letters; tests/preview/test_stored.py).
UNLEASH_ORDER = ["_", "-", "~", "0", "a", "A", "a_b", "a-b", "a.b", "a~b", "a1b", "ab", "aB", "Ab"]


async def test_strategy_variants_are_stored_in_unleashs_name_order(
    admin: httpx.AsyncClient, flag: str
) -> None:
    typed = ["Ab", "aB", "ab", "a1b", "a~b", "a.b", "a-b", "a_b", "A", "a", "0", "~", "-", "_"]
    variants = [
        {"name": n, "weight": 0, "weightType": "variable", "stickiness": "default"} for n in typed
    ]
    added = await admin.post(STRATEGIES, json={"name": "default", "variants": variants})
    assert added.status_code == 200, added.text
    assert [v["name"] for v in added.json()["variants"]] == UNLEASH_ORDER


def _constraint(**overrides: object) -> dict:
    constraint = {"contextName": "appVersion", "operator": "SEMVER_GT", "value": "1.2.3"}
    return {"name": "default", "constraints": [{**constraint, **overrides}]}


def _variant(name: str = "a", weight: int = 0, weight_type: str = "variable") -> dict:
    variant = {"name": name, "weight": weight, "weightType": weight_type, "stickiness": "default"}
    return {"name": "default", "variants": [variant]}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": "noSuchStrategy"}, 400),
        ({"parameters": {}}, 400),
        ({"name": "default", "segments": [999]}, 404),
        (_constraint(operator="LIKE"), 400),
        (_constraint(value="v1.2"), 400),
        (_constraint(value=""), 400),
        (_constraint(operator="NUM_GT", value="ten"), 400),
        (_constraint(operator="DATE_AFTER", value="soon"), 400),
        (_constraint(operator="REGEX", value="a("), 400),
        (_constraint(operator="REGEX", value="a", inverted=True), 400),
        (_constraint(operator="IN", values=[]), 400),
        (_constraint(operator="IN", values=["x" * 101]), 400),
        (_constraint(extra=1), 400),
        (_constraint(contextName="plan", operator="IN", values=["gold"]), 400),
        (_variant(weight=1001), 400),
        (_variant(weight=500, weight_type="fix"), 400),
        (_variant(name="a b"), 400),
        ({"name": "default", "parameters": {"rollout": {"nested": 1}}}, 400),
    ],
)  # fmt: skip
async def test_what_real_unleash_refuses_is_refused(
    admin: httpx.AsyncClient, flag: str, body: dict, status: int
) -> None:
    answer = await admin.post(STRATEGIES, json=body)
    assert answer.status_code == status, answer.text
    assert await events_of(admin, feature=flag, type="feature-strategy-add") == []


@pytest.mark.parametrize(
    "constraint",
    [
        {"contextName": "noSuchField", "operator": "IN", "values": ["x"]},  # real Unleash accepts
        {"contextName": "plan", "operator": "IN", "values": ["pro"]},
        {"contextName": "tenantSize", "operator": "NUM_GTE", "value": "12.5"},
        {"contextName": "currentTime", "operator": "DATE_AFTER", "value": "2025-01-01T00:00:00Z"},
        {"contextName": "appVersion", "operator": "SEMVER_LTE", "value": "2.0.0-beta.1"},
        {"contextName": "email", "operator": "REGEX", "value": "^.*@acme\\.example$"},
    ],
)
async def test_what_real_unleash_accepts_is_accepted(
    admin: httpx.AsyncClient, flag: str, constraint: dict
) -> None:
    answer = await admin.post(STRATEGIES, json={"name": "default", "constraints": [constraint]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["constraints"][0]["contextName"] == constraint["contextName"]


async def test_routes_refuse_unknown_flags_and_other_flags_strategies(
    admin: httpx.AsyncClient, flag: str
) -> None:
    assert (
        await admin.post(STRATEGIES.replace("rollout-me", "nope"), json={"name": "default"})
    ).status_code == 404
    other = (await admin.get("/api/admin/projects/default/features")).json()["features"][0]["name"]
    mine = (await admin.post(STRATEGIES, json={"name": "default"})).json()["id"]
    foreign = STRATEGIES.replace("rollout-me", other)
    assert (await admin.get(f"{foreign}/{mine}")).status_code == 403
    assert (await admin.put(f"{foreign}/{mine}", json={"name": "default"})).status_code == 403
    assert (await admin.get(f"{STRATEGIES}/nope")).status_code == 404
    unlinked = f"{FEATURE}/environments/staging/strategies"  # default has no staging
    assert (await admin.post(unlinked, json={"name": "default"})).status_code == 400
    assert (await admin.get(unlinked)).status_code == 404


async def test_the_viewer_reads_strategies_but_cannot_change_them(
    admin: httpx.AsyncClient, viewer: httpx.AsyncClient, flag: str
) -> None:
    strategy = (await admin.post(STRATEGIES, json={"name": "default"})).json()
    assert (await viewer.get(STRATEGIES)).status_code == 200
    assert (await viewer.post(STRATEGIES, json={"name": "default"})).status_code == 403
    assert (await viewer.delete(f"{STRATEGIES}/{strategy['id']}")).status_code == 403


async def test_strategy_types_context_fields_and_segments(admin: httpx.AsyncClient) -> None:
    types = (await admin.get("/api/admin/strategies")).json()
    assert types["version"] == 1
    names = [s["name"] for s in types["strategies"]]
    assert names[:2] == ["flexibleRollout", "default"]
    rollout = types["strategies"][0]["parameters"]
    assert [p["name"] for p in rollout] == ["rollout", "stickiness", "groupId"]
    fields = (await admin.get("/api/admin/context")).json()
    assert {"environment", "userId", "appName", "currentTime", "sessionId"} <= {
        f["name"] for f in fields
    }
    segments = (await admin.get("/api/admin/segments")).json()["segments"]
    assert segments and all({"id", "name", "constraints"} <= set(s) for s in segments)
