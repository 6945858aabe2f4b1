"""client.integrations.set_enabled on the sandbox: the rest of the configuration sent unchanged,
the answer's parameters masked, read-only refused before any request, an unknown id 404."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient, ReadOnlyProfile
from flagtui.api.errors import NoAccessError, NotFoundError


async def test_disable_then_enable(admin):
    before = next(a for a in (await admin.integrations.list()).addons if a.id == 3)
    off = await admin.integrations.set_enabled(3, False)
    assert off.enabled is False
    assert off.parameters == before.parameters  # masked secrets, as listed
    listed = next(a for a in (await admin.integrations.list()).addons if a.id == 3)
    assert listed == off
    on = await admin.integrations.set_enabled(3, True)
    assert on == before


async def test_read_only_sends_nothing(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as client:
        with pytest.raises(ReadOnlyProfile):
            await client.integrations.set_enabled(3, False)
        assert client.requests_sent == 0


async def test_unknown_id_is_not_found(admin):
    with pytest.raises(NotFoundError) as raised:
        await admin.integrations.set_enabled(999, False)
    assert raised.value.path == "/api/admin/addons/999"


async def test_viewer_is_refused_by_the_server(viewer):
    with pytest.raises(NoAccessError):
        await viewer.integrations.set_enabled(3, False)
