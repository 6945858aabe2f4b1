"""`admin_http`: a synchronous admin client on the running sandbox (the parity tests read the
records the preview evaluates through it)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from flagtui.sandbox import SandboxServer


@pytest.fixture
def admin_http(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with httpx.Client(
        base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}, timeout=30
    ) as http:
        yield http
