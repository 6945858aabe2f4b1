"""Conformance suite: runs against a real Unleash when UNLEASH_URL and UNLEASH_API_TOKEN are set
(`scripts/unleash-oss start` then `eval "$(scripts/unleash-oss env)"`); CI always sets them.

Setup that is not a flagtui operation (creating flags, addons, completing a flag) goes through
`unleash_admin`, a plain httpx client on the real admin API.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlparse

import httpx
import pytest
from real_webhook import create_failing_webhook
from skip_reasons import NO_REAL_UNLEASH

from flagtui.api import AdminClient
from flagtui.cli import main


@dataclass(frozen=True)
class RealUnleash:
    url: str
    token: str = field(repr=False)  # a failure report prints the fixture: never the token


def _real_unleash() -> RealUnleash | None:
    url, token = os.environ.get("UNLEASH_URL"), os.environ.get("UNLEASH_API_TOKEN")
    return RealUnleash(url.rstrip("/"), token) if url and token else None


def pytest_collection_modifyitems(config, items):
    if _real_unleash() is not None:
        return
    skip = pytest.mark.skip(reason=NO_REAL_UNLEASH)
    for item in items:
        if "unleash" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def real_unleash() -> RealUnleash:
    server = _real_unleash()
    assert server is not None
    return server


@pytest.fixture(scope="session")
def real_version(real_unleash) -> tuple[int, int, int]:
    """The real server's OSS version, for the tests of what one version does and another not."""
    answer = httpx.get(
        f"{real_unleash.url}/api/admin/ui-config",
        headers={"Authorization": real_unleash.token},
        timeout=30,
    )
    major, minor, patch = (int(part) for part in answer.json()["version"].split(".")[:3])
    return major, minor, patch


@pytest.fixture
def own_ip(real_unleash) -> str:
    """A loopback address of the test's own to send from: Unleash 8.2 limits the feature search
    per client IP, so a test that spends the limit spends its own, never the one every other
    client on this host shares (127.0.0.1)."""
    host = urlparse(real_unleash.url).hostname or ""
    if not host.startswith("127."):
        pytest.skip(
            f"the server is at {host}, not on loopback: the test spends a feature search limit"
            " of its own only from a loopback address of its own"
        )
    return f"127.45.{random.randint(0, 255)}.{random.randint(1, 254)}"


@pytest.fixture
async def unleash_admin(real_unleash):
    async with httpx.AsyncClient(
        base_url=real_unleash.url, headers={"Authorization": real_unleash.token}, timeout=30
    ) as http:
        yield http


@pytest.fixture
async def real_client(real_unleash):
    async with AdminClient(real_unleash.url, real_unleash.token, profile="conformance") as client:
        await client.connect()
        yield client


@pytest.fixture
async def real_feature(unleash_admin) -> str:
    """A fresh flag in the default project, archived afterwards and never deleted: Unleash
    6.x to 8.x write the archived lifecycle stage in an event handler after answering, and a
    flag deleted before that write breaks a foreign key, which has ended the whole server (6.10.1
    in CI). The same holds for every real-Unleash test's clean-up."""
    name = f"conformance-{uuid.uuid4().hex[:10]}"
    created = await unleash_admin.post(
        "/api/admin/projects/default/features", json={"name": name, "type": "release"}
    )
    assert created.status_code in (200, 201), created.text
    yield name
    await unleash_admin.delete(f"/api/admin/projects/default/features/{name}")


@pytest.fixture(scope="session")
def real_webhook(real_unleash) -> int:
    """A webhook integration to a closed loopback port, with at least one failed delivery."""
    with httpx.Client(
        base_url=real_unleash.url, headers={"Authorization": real_unleash.token}, timeout=30
    ) as http:
        return create_failing_webhook(http, "conformance", "conformance-hook")


@pytest.fixture
def http(real_unleash) -> Iterator[httpx.Client]:
    """The real server's admin API, as the admin token reaches it."""
    with httpx.Client(
        base_url=real_unleash.url, headers={"Authorization": real_unleash.token}, timeout=30
    ) as client:
        yield client


@pytest.fixture
def run(real_unleash, tmp_path, monkeypatch, capsys):
    """`flagtui ARGV…` in-process against the real server, with a home of the test's own:
    (exit code, stdout, stderr)."""
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    monkeypatch.setenv("UNLEASH_URL", real_unleash.url)
    monkeypatch.setenv("UNLEASH_API_TOKEN", real_unleash.token)

    def invoke(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke
