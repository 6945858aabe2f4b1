from collections.abc import AsyncIterator

import pytest

from flagtui.api import AdminClient
from flagtui.sandbox import SandboxServer


@pytest.fixture
async def admin(sandbox: SandboxServer) -> AsyncIterator[AdminClient]:
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="sandbox-admin") as client:
        await client.connect()
        yield client
