"""API tokens on the sandbox: list, create, delete as real Unleash 8.2 answers them, the events
they record, and a created client token reading the client API (and its seenAt)."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from tests.sandbox.conftest import assert_error, events_of

BODY = {"tokenName": "sdk-checkout", "type": "client", "environment": "development"}


async def test_the_sandbox_lists_its_own_tokens(admin: httpx.AsyncClient, sandbox_app) -> None:
    tokens = (await admin.get("/api/admin/api-tokens")).json()["tokens"]
    mine = {t["secret"]: t for t in tokens}
    own = mine[sandbox_app.state.admin_token]
    assert (own["type"], own["environment"], own["projects"]) == ("admin", "*", ["*"])
    assert {"tokenName", "createdAt", "seenAt", "expiresAt", "alias", "secure"} <= set(own)


async def test_a_created_client_token_reads_its_environment_and_is_seen(
    admin: httpx.AsyncClient, sandbox_app
) -> None:
    response = await admin.post("/api/admin/api-tokens", json={**BODY, "projects": ["default"]})
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["secret"].startswith("default:development.")
    assert (created["tokenName"], created["project"], created["projects"]) == (
        "sdk-checkout",
        "default",
        ["default"],
    )
    event = (await events_of(admin, type="api-token-created"))[0]
    assert event["data"]["tokenName"] == "sdk-checkout"
    assert "secret" not in event["data"] and created["secret"] not in str(event)
    assert (event["project"], event["environment"]) == ("default", "development")
    listed = {t["secret"]: t for t in (await admin.get("/api/admin/api-tokens")).json()["tokens"]}
    assert listed[created["secret"]]["seenAt"] is None

    transport = httpx.ASGITransport(app=sandbox_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as sdk:
        features = await sdk.get(
            "/api/client/features", headers={"Authorization": created["secret"]}
        )
        assert features.status_code == 200
        assert features.json()["query"]["environment"] == "development"
        admin_read = await sdk.get(
            "/api/admin/projects", headers={"Authorization": created["secret"]}
        )
        assert admin_read.status_code == 403
    listed = {t["secret"]: t for t in (await admin.get("/api/admin/api-tokens")).json()["tokens"]}
    assert listed[created["secret"]]["seenAt"] is not None


async def test_a_deleted_token_is_gone_and_refused(admin: httpx.AsyncClient, sandbox_app) -> None:
    secret = (await admin.post("/api/admin/api-tokens", json=BODY)).json()["secret"]
    response = await admin.delete(f"/api/admin/api-tokens/{quote(secret, safe='')}")
    assert response.status_code == 200 and response.content == b""
    listed = [t["secret"] for t in (await admin.get("/api/admin/api-tokens")).json()["tokens"]]
    assert secret not in listed
    event = (await events_of(admin, type="api-token-deleted"))[0]
    assert event["data"] is None and event["preData"]["tokenName"] == "sdk-checkout"
    assert "secret" not in event["preData"]
    transport = httpx.ASGITransport(app=sandbox_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as sdk:
        answer = await sdk.get("/api/client/features", headers={"Authorization": secret})
    assert answer.status_code == 401


async def test_deleting_an_unknown_token_is_200_and_records_nothing(
    admin: httpx.AsyncClient,
) -> None:
    before = len(await events_of(admin, type="api-token-deleted"))
    response = await admin.delete("/api/admin/api-tokens/default:development.nope")
    assert response.status_code == 200
    assert len(await events_of(admin, type="api-token-deleted")) == before


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"type": "client", "environment": "development"}, "tokenName"),
        ({**BODY, "type": "admin"}, "/body/type"),
        ({**BODY, "environment": "*"}, "Client token cannot be scoped to all environments"),
        ({**BODY, "environment": "nope"}, "Environment=nope does not exist"),
        ({**BODY, "projects": ["nope"]}, "Project=nope does not exist"),
    ],
)
async def test_bad_creates_are_refused_as_real_unleash_refuses_them(
    admin: httpx.AsyncClient, body: dict, said: str
) -> None:
    response = await admin.post("/api/admin/api-tokens", json=body)
    assert_error(response, 400, "BadDataError")
    assert said in response.json()["message"]


async def test_the_viewer_may_not_list_or_create(viewer: httpx.AsyncClient) -> None:
    assert (await viewer.get("/api/admin/api-tokens")).status_code == 403
    assert (await viewer.post("/api/admin/api-tokens", json=BODY)).status_code == 403
