"""Context fields on real Unleash (6.10.1, 7.5.1, 8.2.0): each write through flagtui's client
records its event, with the data and preData the sandbox records for the same requests; the
sandbox answers bad input, a name taken, an unknown field and the usage route as real Unleash
does; an edit of legal values changes nothing an SDK evaluates (the client API's payload and the
SDKs' engine, before and after); a field in use is refused on delete by 7.5.1 and 8.2.0 (and the
sandbox), deleted by 6.10.1."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from real_sdk import create_client_token, delete_client_token
from yggdrasil_engine.engine import UnleashEngine

from flagtui.api import AdminClient
from flagtui.api.errors import ConflictError
from flagtui.api.models import ContextField, LegalValue

pytestmark = pytest.mark.unleash

CONTEXT = "/api/admin/context"
FLAGS = "/api/admin/projects/default/features"


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


async def events_of(http: httpx.AsyncClient, name: str) -> list[dict]:
    """The context field events naming `name`, oldest first, as type, data and preData."""
    found = []
    for type_ in ("context-field-created", "context-field-updated", "context-field-deleted"):
        answer = await http.get(
            "/api/admin/search/events", params={"type": f"IS:{type_}", "limit": 50}
        )
        assert answer.status_code == 200, answer.text
        for e in answer.json()["events"]:
            if name in ((e.get("data") or {}).get("name"), (e.get("preData") or {}).get("name")):
                found.append((e["id"], e["type"], e.get("data"), e.get("preData")))
    return [{"type": t, "data": d, "preData": p} for _, t, d, p in sorted(found)]


def without_times(events: list[dict]) -> list[dict]:
    for e in events:
        if e["preData"] and "createdAt" in e["preData"]:
            e["preData"]["createdAt"] = "…"
    return events


async def writes(client: AdminClient, name: str) -> None:
    """One field created, edited twice (once to what it already is) and deleted."""
    made = ContextField(name=name, description="Where",
                        legal_values=[LegalValue(value="eu", description="Europe"),
                                      LegalValue(value="us")], stickiness=True)  # fmt: skip
    created = await client.context_fields.create(made)
    edit = client.context_fields.plan_edit(created, legal_values=[LegalValue(value="eu")])
    edited = await client.context_fields.send_edit(edit)
    again = client.context_fields.plan_edit(edited, description="Where users are")
    await client.context_fields.send_edit(again)
    await client.context_fields.delete(name)


async def test_each_write_records_the_event_the_sandbox_records(
    real_client, unleash_admin, sandbox
):
    name = unique("conformance-field")
    await writes(real_client, name)
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox") as local:
        await writes(local, name)
        async with httpx.AsyncClient(
            base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}
        ) as sandbox_http:
            local_events = without_times(await events_of(sandbox_http, name))
    real_events = without_times(await events_of(unleash_admin, name))
    assert [e["type"] for e in real_events] == [
        "context-field-created",
        "context-field-updated",
        "context-field-updated",
        "context-field-deleted",
    ]
    assert real_events == local_events
    assert real_events[1]["data"]["legalValues"] == [{"value": "eu"}]
    assert real_events[3]["preData"]["description"] == "Where users are"
    gone = await unleash_admin.get(f"{CONTEXT}/{name}")
    assert gone.status_code == 404


BAD = [
    {},
    {"name": ""},
    {"name": "not url friendly"},
    {"name": "n" * 101},
    {"name": "x", "description": "d" * 251},
    {"name": "x", "stickiness": "yes"},
    {"name": "x", "legalValues": ["a"]},
    {"name": "x", "legalValues": [{"value": ""}]},
    {"name": "x", "legalValues": [{"value": "a"}, {"value": "a"}]},
    {"name": "x", "legalValues": [{"value": "v" * 101}]},
]


@pytest.mark.parametrize("body", BAD, ids=range(len(BAD)))
async def test_bad_input_gets_real_unleashs_answer(unleash_admin, sandbox_http, body):
    name = unique("conformance-bad")
    given = {**body, "name": name} if body.get("name") == "x" else body
    real = await unleash_admin.post(CONTEXT, json=given)
    local = await sandbox_http.post(CONTEXT, json=given)
    assert (real.status_code, local.status_code) == (400, 400), real.text
    for key in ("name", "message"):
        assert real.json()[key] == local.json()[key]
    assert real.json()["details"][0]["message"] == local.json()["details"][0]["message"]


async def test_taken_unknown_and_usage_answer_alike(unleash_admin, sandbox_http):
    name = unique("conformance-taken")
    for http in (unleash_admin, sandbox_http):
        assert (await http.post(CONTEXT, json={"name": name})).status_code == 201
    try:
        for method, path, body in (
            ("POST", CONTEXT, {"name": name}),
            ("PUT", f"{CONTEXT}/{name}-missing", {"description": "x"}),
            ("DELETE", f"{CONTEXT}/{name}-missing", None),
            ("GET", f"{CONTEXT}/{name}-missing", None),
        ):
            real = await unleash_admin.request(method, path, json=body)
            local = await sandbox_http.request(method, path, json=body)
            assert real.status_code == local.status_code, (method, path, real.text)
            # 6.10.1 and 7.5.1 say "Context field" where 8.2.0 (and the sandbox) say "context"
            assert (real.json()["name"], real.json()["message"].lower()) == (
                local.json()["name"],
                local.json()["message"].lower(),
            )
        one = (await unleash_admin.get(f"{CONTEXT}/{name}")).json()
        assert set(one) == set((await sandbox_http.get(f"{CONTEXT}/{name}")).json())
        listed = next(f for f in (await unleash_admin.get(CONTEXT)).json() if f["name"] == name)
        local_list = (await sandbox_http.get(CONTEXT)).json()
        assert set(listed) == set(next(f for f in local_list if f["name"] == name))
        nobody = await unleash_admin.get(f"{CONTEXT}/{name}-missing/strategies")
        assert nobody.json() == (await sandbox_http.get(f"{CONTEXT}/x/strategies")).json()
    finally:
        await unleash_admin.delete(f"{CONTEXT}/{name}")


async def test_legal_values_change_no_evaluation_and_a_used_field_is_kept_or_not(
    real_client, unleash_admin, real_unleash, real_feature, real_version
):
    name = unique("conformance-tier")
    field = ContextField(name=name, legal_values=[LegalValue(value="gold"),
                                                  LegalValue(value="silver")])  # fmt: skip
    created = await real_client.context_fields.create(field)
    constraint = {"contextName": name, "operator": "IN", "values": ["gold", "silver"]}
    path = f"{FLAGS}/{real_feature}/environments/development/strategies"
    added = await unleash_admin.post(path, json={"name": "default", "constraints": [constraint]})
    assert added.status_code == 200, added.text
    switched = await unleash_admin.post(f"{FLAGS}/{real_feature}/environments/development/on")
    assert switched.status_code == 200, switched.text
    uses = await real_client.context_fields.usage(name)
    assert [(u.feature_name, u.environment, u.id) for u in uses] == [
        (real_feature, "development", added.json()["id"])
    ]
    with httpx.Client(base_url=real_unleash.url, headers={"Authorization": real_unleash.token},
                      timeout=30) as admin:  # fmt: skip
        token = create_client_token(admin, "development")
        try:
            before = _sdk_view(real_unleash.url, token, real_feature, name)
            off = await real_client.context_fields.no_longer_legal(name, ["gold"])
            assert [(o.feature, o.values) for o in off] == [(real_feature, ("silver",))]
            edit = real_client.context_fields.plan_edit(
                created, legal_values=[LegalValue(value="gold")]
            )
            await real_client.context_fields.send_edit(edit)
            after = _sdk_view(real_unleash.url, token, real_feature, name)
        finally:
            delete_client_token(admin, token)
    assert after == before
    assert before[1] == {"gold": True, "silver": True, "bronze": False}
    if real_version >= (7, 5, 1):  # seen on 7.5.1 and 8.2.0; 6.10.1 deletes it
        with pytest.raises(ConflictError):
            await real_client.context_fields.delete(name)
        kept = await unleash_admin.get(f"{CONTEXT}/{name}")
        assert kept.status_code == 200
        await unleash_admin.delete(f"{path}/{added.json()['id']}")
    await real_client.context_fields.delete(name)
    assert (await unleash_admin.get(f"{CONTEXT}/{name}")).status_code == 404


def _sdk_view(url: str, token: str, flag: str, field: str) -> tuple[str, dict[str, bool]]:
    """The flag as the client API gives it to SDKs, and what the SDKs' engine answers for it
    with each value of `field`."""
    answer = httpx.get(f"{url}/api/client/features", headers={"Authorization": token}, timeout=30)
    assert answer.status_code == 200, answer.text
    payload = answer.json()
    assert "legalValues" not in answer.text
    definition = next(f for f in payload["features"] if f["name"] == flag)
    engine = UnleashEngine()
    engine.take_state(answer.text)
    said = {
        v: engine.is_enabled(flag, {"properties": {field: v}}).is_enabled
        for v in ("gold", "silver", "bronze")
    }
    return json.dumps(definition, sort_keys=True), said
