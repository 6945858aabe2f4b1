"""The playground answers what the official SDK (UnleashClient, on yggdrasil-engine) answers
when it reads the sandbox's client API; the client token reads only the client API."""

from __future__ import annotations

import uuid

import httpx
import pytest
from playground_contexts import CONTEXTS, playground_body
from sdk_parity import APP_NAME, start_sdk
from starlette.applications import Starlette

from flagtui.sandbox import SandboxServer, read_tokens

USERS = [str(i) for i in range(0, 400, 7)]
EVERY_PROJECT_USERS = USERS[:6]  # every project, the hostile one included: fewer users


def _beta(user: str) -> str:
    return "acme-beta" if int(user) % 3 == 0 else "initech"


@pytest.fixture
def rollout_flag(sandbox: SandboxServer) -> str:
    """A flag made through the routes: a 30 % rollout for beta tenants plus a strategy variant
    split, on in production."""
    name = f"parity-{uuid.uuid4().hex[:6]}"
    with httpx.Client(
        base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}
    ) as admin:
        assert (
            admin.post("/api/admin/projects/default/features", json={"name": name}).status_code
            == 201
        )
        base = f"/api/admin/projects/default/features/{name}/environments/production"
        body = {
            "name": "flexibleRollout",
            "parameters": {"rollout": "30", "stickiness": "userId"},
            "constraints": [{"contextName": "tenantId", "operator": "IN", "values": ["acme-beta"]}],
            "variants": [
                {"name": v, "weight": 0, "weightType": "variable", "stickiness": "userId"}
                for v in ("left", "right")
            ],
        }
        assert admin.post(f"{base}/strategies", json=body).status_code == 200
        assert admin.post(f"{base}/on").status_code == 200
    return name


def test_the_playground_agrees_with_the_sdk_for_every_flag_and_user(
    sandbox: SandboxServer, rollout_flag: str
) -> None:
    sdk = start_sdk(sandbox)
    seen_on = seen_off = 0
    try:
        with httpx.Client(
            base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}
        ) as admin:
            runs = [(u, ["default"]) for u in USERS] + [(u, "*") for u in EVERY_PROJECT_USERS]
            for user, projects in runs:
                context = {"appName": APP_NAME, "userId": user, "tenantId": _beta(user)}
                answer = admin.post(
                    "/api/admin/playground",
                    json={"environment": "production", "projects": projects, "context": context},
                )
                assert answer.status_code == 200
                sdk_context = {"userId": user, "properties": {"tenantId": _beta(user)}}
                for feature in answer.json()["features"]:
                    flag = feature["name"]
                    expected = sdk.is_enabled(flag, sdk_context)
                    assert feature["isEnabled"] is expected, (flag, user)
                    variant = sdk.get_variant(flag, sdk_context)
                    assert feature["variant"]["name"] == variant["name"], (flag, user)
                    if flag == rollout_flag and projects != "*":
                        seen_on += expected
                        seen_off += not expected
    finally:
        sdk.destroy()
    assert seen_on and seen_off  # the rollout splits these users: the comparison means something


async def test_the_demo_rollouts_are_evaluated(admin: httpx.AsyncClient) -> None:
    answer = await admin.post(
        "/api/admin/playground",
        json={"environment": "production", "context": {"appName": "demo", "userId": "42"}},
    )
    features = {f["name"]: f for f in answer.json()["features"]}
    titled = [
        s
        for f in features.values()
        for s in f["strategies"]["data"]
        if s.get("title") == "A/B split"
    ]
    assert titled and titled[0]["result"]["variant"]["name"] in ("control", "treatment")


async def test_the_client_token_reads_the_client_api_only(
    sandbox_app: Starlette, anonymous: httpx.AsyncClient
) -> None:
    client = read_tokens(sandbox_app.state.db_path).client
    assert client is not None and client.startswith("*:production.")
    headers = {"Authorization": client}
    read = await anonymous.get("/api/client/features", headers=headers)
    assert read.status_code == 200
    assert read.json()["query"]["environment"] == "production"
    assert "segments" not in read.json()  # no client spec header: segments inlined
    again = await anonymous.get(
        "/api/client/features", headers={**headers, "If-None-Match": read.headers["etag"]}
    )
    assert again.status_code == 304
    refused = await anonymous.get("/api/admin/projects", headers=headers)
    assert refused.status_code == 403
    assert (await anonymous.get("/api/client/features")).status_code == 401


@pytest.mark.parametrize(("context", "status"), CONTEXTS, ids=[str(c) for c, _ in CONTEXTS])
async def test_the_playground_takes_and_refuses_contexts_as_real_unleash(
    sandbox_app: Starlette, context: dict, status: int
) -> None:
    """Failed before on a null property (400, where real Unleash answers 200) and on `userId: {}`
    and `currentTime: ""` (200, where it answers 400)."""
    transport = httpx.ASGITransport(app=sandbox_app)
    headers = {"Authorization": sandbox_app.state.admin_token}
    async with httpx.AsyncClient(
        transport=transport, base_url="http://sandbox", headers=headers
    ) as admin:
        answer = await admin.post("/api/admin/playground", json=playground_body("default", context))
    assert answer.status_code == status, answer.text
    if status == 400:
        field = next(iter(context))
        assert f"context.{field}" in answer.json()["message"]
