"""The official Unleash SDK (`UnleashClient`, which evaluates with yggdrasil-engine) watching one
environment of a real Unleash, so a test can ask what an application sees after a write.

`SdkWatch` polls `/api/client/features` every second with a client token of its own (created
through the admin API, deleted at the end), sends no metrics and registers nothing, and keeps its
state in memory (no disk cache). Its waits poll until the SDK's answer is the expected one; the
bound only ends a stuck test, it is never a statement about speed.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx
from UnleashClient import UnleashClient
from UnleashClient.cache import BaseCache
from UnleashClient.constants import ETAG
from UnleashClient.utils import InstanceAllowType

WAIT_S = 60.0  # far above the SDK's 1 s refresh: reached only when the expected never comes
POLL_S = 0.2

T = TypeVar("T")


def wait_for(what: str, read: Callable[[], T], done: Callable[[T], bool]) -> T:
    """Poll `read` until `done` holds for its value; fail naming `what` and the last value."""
    deadline = time.monotonic() + WAIT_S
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still {value!r} after {WAIT_S:g} s")
        time.sleep(POLL_S)


class MemoryCache(BaseCache):
    """The SDK's cache in memory: nothing is written in the repo or the user's cache dir."""

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}

    def set(self, key: str, value: Any) -> None:
        self._values[key] = value

    def mset(self, data: dict) -> None:
        self._values.update(data)

    def get(self, key: str, default: Any | None = None) -> Any:
        return self._values.get(key, default)

    def exists(self, key: str) -> bool:
        return key in self._values

    def destroy(self) -> None:
        self._values.clear()


def revision_of(etag: str) -> int:
    """The client API's ETag is `"<query hash>:<revision>[:v1]"`; the revision is the id of the
    newest event that changes what SDKs get (0 before the first fetch)."""
    parts = etag.strip('"').split(":")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def create_client_token(admin: httpx.Client, environment: str) -> str:
    """A client token for the default project. `tokenName` is the one body every version from
    6.10.1 to 8.2.0 accepts (`username` is refused from 7.x on)."""
    answer = admin.post(
        "/api/admin/api-tokens",
        json={
            "tokenName": f"flagtui-intent-{environment}-{uuid.uuid4().hex[:6]}",
            "type": "client",
            "environment": environment,
            "projects": ["default"],
        },
    )
    assert answer.status_code == 201, answer.text
    secret: str = answer.json()["secret"]
    return secret


def delete_client_token(admin: httpx.Client, secret: str) -> None:
    admin.delete(f"/api/admin/api-tokens/{secret}")


class SdkWatch:
    """One running UnleashClient for one environment."""

    def __init__(self, url: str, client_token: str, environment: str) -> None:
        self.environment = environment
        self._url, self._token = url, client_token
        self._cache = MemoryCache()
        self._client = UnleashClient(
            url=f"{url}/api",
            app_name=f"flagtui-intent-{environment}-{uuid.uuid4().hex[:6]}",
            environment=environment,
            refresh_interval=1,
            disable_metrics=True,  # metrics would move lifecycle stages by themselves
            disable_registration=True,
            custom_headers={"Authorization": client_token},
            cache=self._cache,
            multiple_instance_mode=InstanceAllowType.SILENTLY_ALLOW,
        )
        self._client.initialize_client()

    def evaluation(self, flag: str) -> bool | None:
        """What the application gets for `flag` with an empty context; None: the SDK does not
        know the flag (archived, or not in this token's projects)."""
        if flag not in self._client.feature_definitions():
            return None
        return bool(self._client.is_enabled(flag))

    def evaluate(self, flag: str, context: dict[str, Any]) -> bool:
        """What the application gets for `flag` in `context` (a userId, properties, ...)."""
        return bool(self._client.is_enabled(flag, context))

    def variant(self, flag: str, context: dict[str, Any]) -> str:
        """The variant the application gets for `flag` in `context` ("disabled": none)."""
        return str(self._client.get_variant(flag, context)["name"])

    def answer(self, flag: str, context: dict[str, Any]) -> dict[str, Any]:
        """The flag's state, its variant and the variant's payload (None: none) in `context`,
        in the shape tests/node_sdk.py gives the Node SDK's."""
        variant = self._client.get_variant(flag, context)
        return {
            "enabled": bool(self._client.is_enabled(flag, context)),
            "variant": str(variant["name"]),
            "variantEnabled": bool(variant["enabled"]),
            "payload": variant.get("payload") or None,
        }

    @property
    def client_token(self) -> str:
        """The client token this SDK reads with (another SDK may read with it too)."""
        return self._token

    def revision(self) -> int:
        return revision_of(str(self._cache.get(ETAG, "")))

    def wait_until(self, flag: str, expected: bool | None) -> None:
        wait_for(
            f"the SDK for {self.environment} evaluating {flag}",
            lambda: self.evaluation(flag),
            lambda value: value is expected,
        )

    def wait_for_revision(self, at_least: int) -> None:
        """Until the SDK has fetched a state at least as new as event `at_least`."""
        wait_for(
            f"the SDK for {self.environment}'s revision (waiting for {at_least})",
            self.revision,
            lambda revision: revision >= at_least,
        )

    def report_seen(self, flag: str) -> None:
        """Send the metrics an SDK sends after evaluating `flag` (this one sends none by itself):
        Unleash then moves the flag to pre-live, and to live for a production environment."""
        now = datetime.now(UTC)
        bucket = {
            "start": (now - timedelta(seconds=10)).isoformat(),
            "stop": now.isoformat(),
            "toggles": {flag: {"yes": 1, "no": 0, "variants": {}}},
        }
        sent = httpx.post(
            f"{self._url}/api/client/metrics",
            headers={"Authorization": self._token},
            json={"appName": "flagtui-intent", "instanceId": "intent", "bucket": bucket},
            timeout=30,
        )
        assert sent.status_code == 202, sent.text

    def close(self) -> None:
        self._client.destroy()
