"""Context fields in the sandbox, as real Unleash 6.10.1-8.2.0 answer them (checked there:
tests/conformance/test_context_fields_on_real_unleash.py): created, read, edited, deleted and
where used, each write's event with real Unleash's data and preData, the checks and their
messages, a field in use refused on delete, a database made before the table given the fixed
fields."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import httpx
from starlette.applications import Starlette

from flagtui.sandbox import create_app

CONTEXT = "/api/admin/context"
FLAG = "/api/admin/projects/default/features"


async def newest_event(http: httpx.AsyncClient, type_: str) -> dict:
    answer = await http.get("/api/admin/search/events", params={"type": f"IS:{type_}"})
    return dict(answer.json()["events"][0])


async def event_total(http: httpx.AsyncClient) -> int:
    return int((await http.get("/api/admin/search/events", params={"limit": 1})).json()["total"])


async def test_a_field_is_created_read_edited_and_deleted_with_its_events(sandbox_http):
    body = {
        "name": "region",
        "description": "d1",
        "legalValues": [{"value": "eu", "description": "Europe"}, {"value": "us"}],
        "stickiness": True,
        "sortOrder": 7,
        "extra": 1,
    }
    created = await sandbox_http.post(CONTEXT, json=body)
    assert created.status_code == 201
    record = created.json()
    assert {k: v for k, v in record.items() if k != "createdAt"} == {
        "name": "region",
        "description": "d1",
        "stickiness": True,
        "sortOrder": 7,
        "legalValues": [{"value": "eu", "description": "Europe"}, {"value": "us"}],
    }
    event = await newest_event(sandbox_http, "context-field-created")
    assert event["data"] == {
        "name": "region",
        "description": "d1",
        "legalValues": [{"value": "eu", "description": "Europe"}, {"value": "us"}],
        "stickiness": True,
    }
    assert event["preData"] is None
    assert (await sandbox_http.get(f"{CONTEXT}/region")).json() == record
    listed = {f["name"]: f for f in (await sandbox_http.get(CONTEXT)).json()}
    assert listed["region"]["usedInFeatures"] == 0

    edit = {"description": "d2", "legalValues": [{"value": "eu"}], "sortOrder": 3}
    put = await sandbox_http.put(f"{CONTEXT}/region", json=edit)
    assert (put.status_code, put.content) == (200, b"")
    now = (await sandbox_http.get(f"{CONTEXT}/region")).json()
    # the stickiness not sent is false, the sort order 0, as real Unleash leaves them
    assert (now["description"], now["stickiness"], now["sortOrder"]) == ("d2", False, 0)
    event = await newest_event(sandbox_http, "context-field-updated")
    assert event["data"] == {
        "description": "d2",
        "legalValues": [{"value": "eu"}],
        "name": "region",
        "stickiness": False,
    }
    assert event["preData"] == {
        "name": "region",
        "stickiness": True,
        "description": "d1",
        "legalValues": [{"value": "eu", "description": "Europe"}, {"value": "us"}],
    }
    total = await event_total(sandbox_http)
    again = await sandbox_http.put(f"{CONTEXT}/region", json=edit)
    assert again.status_code == 200
    assert await event_total(sandbox_http) == total  # nothing changed: no event

    deleted = await sandbox_http.delete(f"{CONTEXT}/region")
    assert (deleted.status_code, deleted.content) == (200, b"")
    event = await newest_event(sandbox_http, "context-field-deleted")
    assert event["data"] is None
    assert event["preData"] == {
        "name": "region",
        "createdAt": record["createdAt"],
        "sortOrder": 0,
        "stickiness": False,
        "description": "d2",
        "legalValues": [{"value": "eu"}],
    }
    gone = await sandbox_http.get(f"{CONTEXT}/region")
    assert (gone.status_code, gone.json()["message"]) == (404, "Could not find context field")


async def test_bad_input_is_refused_with_real_unleashs_names_and_sentences(sandbox_http):
    cases = [
        ({}, "The `/body/name` property is required. It was not present on the data you sent."),
        ({"name": ""}, '"name" is not allowed to be empty.'),
        ({"name": "a b"}, '"name" must be URL friendly. You provided "a b".'),
        ({"name": "n" * 101}, '"name" length must be less than or equal to 100 characters long.'),
        ({"name": "x", "description": "d" * 251}, '"description" length must be less than'),
        ({"name": "x", "stickiness": "yes"}, "The `/body/stickiness` property must be boolean."),
        ({"name": "x", "legalValues": ["a"]}, "The `/body/legalValues/0` property must be object"),
        ({"name": "x", "legalValues": [{"value": ""}]}, '"legalValues[0].value" is not allowed'),
        (
            {"name": "x", "legalValues": [{"value": "a"}, {"value": "a"}]},
            '"legalValues[1]" contains a duplicate value. You provided {"value":"a"}.',
        ),
        ({"name": "x", "legalValues": [{"value": "v" * 101}]}, '"legalValues[0].value" length'),
    ]
    for body, said in cases:
        answer = await sandbox_http.post(CONTEXT, json=body)
        assert answer.status_code == 400, body
        error = answer.json()
        assert error["name"] == "BadDataError"
        assert error["details"][0]["message"].startswith(said.rstrip(".")), (body, error)
    taken = await sandbox_http.post(CONTEXT, json={"name": "userId"})
    assert taken.status_code == 409
    assert taken.json()["name"] == "NameExistsError"
    assert taken.json()["message"] == "A context field with that name already exist"
    missing = await sandbox_http.put(f"{CONTEXT}/nope", json={"description": "x"})
    assert (missing.status_code, missing.json()["message"]) == (
        404,
        "Could not find context field with name nope",
    )
    assert (await sandbox_http.delete(f"{CONTEXT}/nope")).status_code == 404
    assert "x" not in {f["name"] for f in (await sandbox_http.get(CONTEXT)).json()}


async def test_a_field_in_use_says_where_and_is_not_deleted(sandbox_http):
    assert (await sandbox_http.post(CONTEXT, json={"name": "tier"})).status_code == 201
    assert (await sandbox_http.post(FLAG, json={"name": "tiered"})).status_code == 201
    constraint = {"contextName": "tier", "operator": "IN", "values": ["gold"]}
    ids = []
    for env in ("development", "production"):
        path = f"{FLAG}/tiered/environments/{env}/strategies"
        added = await sandbox_http.post(path, json={"name": "default", "constraints": [constraint]})
        assert added.status_code == 200, added.text
        ids.append(added.json()["id"])
    used = (await sandbox_http.get(f"{CONTEXT}/tier/strategies")).json()
    assert used == {
        "strategies": [
            {"id": ids[0], "projectId": "default", "featureName": "tiered",
             "strategyName": "default", "environment": "development"},
            {"id": ids[1], "projectId": "default", "featureName": "tiered",
             "strategyName": "default", "environment": "production"},
        ]
    }  # fmt: skip
    refused = await sandbox_http.delete(f"{CONTEXT}/tier")
    assert refused.status_code == 409
    assert refused.json()["name"] == "ConflictError"
    assert (await sandbox_http.get(f"{CONTEXT}/tier")).status_code == 200
    # legal values set now refuse a strategy saved with another value, as real Unleash does
    legal = {"legalValues": [{"value": "silver"}]}
    assert (await sandbox_http.put(f"{CONTEXT}/tier", json=legal)).status_code == 200
    path = f"{FLAG}/tiered/environments/development/strategies/{ids[0]}"
    resaved = await sandbox_http.put(path, json={"name": "default", "constraints": [constraint]})
    assert resaved.status_code == 400
    assert "legal value" in resaved.json()["message"]
    assert (await sandbox_http.delete(f"{FLAG}/tiered")).status_code == 202  # archived
    assert (await sandbox_http.get(f"{CONTEXT}/tier/strategies")).json() == {"strategies": []}
    assert (await sandbox_http.delete(f"{CONTEXT}/tier")).status_code == 200
    nobody = await sandbox_http.get(f"{CONTEXT}/never-was/strategies")
    assert nobody.json() == {"strategies": []}


def test_a_database_made_before_the_table_gets_the_fixed_fields(sandbox_db):
    with closing(sqlite3.connect(sandbox_db)) as conn, conn:
        conn.execute("DROP TABLE context_fields")
    app: Starlette = create_app(sandbox_db)
    assert app is not None
    with closing(sqlite3.connect(sandbox_db)) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM context_fields")}
    assert {"userId", "sessionId", "tenantId", "plan"} <= names
