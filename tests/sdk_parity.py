"""The official SDK (UnleashClient, on yggdrasil-engine) reading the sandbox's production client
API, the admin API's records of the flags it evaluates, and varied contexts to ask both with:
what the preview's parity tests compare (tests/preview)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import httpx
from real_sdk import MemoryCache
from UnleashClient import UnleashClient
from UnleashClient.utils import InstanceAllowType

from flagtui.sandbox import SandboxServer

APP_NAME = "flagtui-preview-test"
ENVIRONMENT = "production"  # the sandbox's client token reads it


def start_sdk(sandbox: SandboxServer) -> UnleashClient:
    """The SDK after its first fetch of the client API (call it after the flags are written)."""
    client = UnleashClient(
        url=f"{sandbox.url}/api",
        app_name=APP_NAME,
        environment=ENVIRONMENT,
        refresh_interval=3600,
        disable_metrics=True,
        disable_registration=True,
        custom_headers={"Authorization": sandbox.client_token},
        cache=MemoryCache(),
        multiple_instance_mode=InstanceAllowType.SILENTLY_ALLOW,
    )
    client.initialize_client()
    return client


def flag_record(admin: httpx.Client, project: str, name: str) -> dict[str, Any]:
    answer = admin.get(
        f"/api/admin/projects/{quote(project, safe='')}/features/{quote(name, safe='')}"
    )
    assert answer.status_code == 200, answer.text
    record: dict[str, Any] = answer.json()
    return record


def parents_of(admin: httpx.Client, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of the flags `record` depends on (a parent is in the child's project)."""
    return [
        flag_record(admin, record["project"], d["feature"])
        for d in record.get("dependencies") or []
    ]


def segments_of(admin: httpx.Client) -> list[dict[str, Any]]:
    segments: list[dict[str, Any]] = admin.get("/api/admin/segments").json()["segments"]
    return segments


TENANTS = ["acme-beta", "globex-beta", "initech", "umbrella", "ACME-BETA"]
COUNTRIES = ["DE", "FR", "SE", "US", "BR", "de", "NL"]
PLANS = ["free", "pro", "premium", "enterprise", "PREMIUM"]
VERSIONS = ["1.2.3", "1.10.0", "1.9.9", "2.0.0-beta.1", "2.0.0", "0.9.0-rc.2", "10.0.0", "abc"]
DOMAINS = ["acme.example", "example.org", "Example.ORG", "corp.acme.example"]


def user_contexts(count: int, seed: int = 25) -> list[dict[str, Any]]:
    """Varied SDK contexts: mostly a userId `u-N` (some the demo segment's 1001-1003, some only
    a sessionId), properties every constraint of the tests reads (one context in five gives
    them as top-level fields), half with a `currentTime` between 2025 and 2027 (the other half:
    the SDK's now)."""
    rng = random.Random(seed)
    contexts = []
    for i in range(1, count + 1):
        properties = {
            "tenantId": rng.choice(TENANTS),
            "country": rng.choice(COUNTRIES),
            "plan": rng.choice(PLANS),
            "appVersion": rng.choice(VERSIONS),
            "tenantSize": rng.choice([str(rng.randint(0, 250)), "50", "100", "1e2", "many"]),
            "email": f"user{i}@{rng.choice(DOMAINS)}",
        }
        context: dict[str, Any] = {"properties": properties, "remoteAddress": f"10.0.0.{i % 6}"}
        if i % 9:
            context["userId"] = str(rng.choice([1001, 1002, 1003])) if i % 40 == 0 else f"u-{i}"
        else:
            context["sessionId"] = f"s-{i}"
        if i % 5 == 0:  # custom fields at the top level: the SDK reads them as properties
            context.update(context.pop("properties"))
        if i % 2:
            moment = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(hours=rng.randint(0, 24 * 900))
            context["currentTime"] = moment.isoformat().replace("+00:00", "Z")
        contexts.append(context)
    return contexts
