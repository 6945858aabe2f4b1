"""Archived flags through the client, on the sandbox: archive, list, find, open and revive."""

from __future__ import annotations

import httpx
import pytest

from flagtui.api import AdminClient, errors


async def test_archive_then_list_open_and_revive(admin, some_feature):
    project, name = some_feature.project, some_feature.name
    before = await admin.features.archive(project, name)
    assert before.name == name and not before.is_archived
    page = await admin.archived.list(project)
    assert name in [f.name for f in page.features]
    assert all(f.is_archived and f.archived for f in page.features)
    with pytest.raises(errors.NotFoundError):
        await admin.features.get(project, name)
    opened = await admin.features.get_or_archived(project, name)
    assert opened.name == name and opened.archived
    await admin.features.revive(project, name)
    live = await admin.features.get(project, name)
    assert not live.is_archived
    assert live.lifecycle is not None and live.lifecycle.stage == "initial"
    assert await admin.archived.find(project, name) is None


async def test_a_flag_neither_live_nor_archived_stays_not_found(admin):
    with pytest.raises(errors.NotFoundError):
        await admin.features.get_or_archived("payments", "no-such-flag-anywhere")


async def test_revive_needs_names_and_write_access(admin, sandbox):
    with pytest.raises(errors.InvalidArgument):
        await admin.archived.revive_many("payments", [])
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as locked:
        with pytest.raises(errors.ReadOnlyProfile):
            await locked.archived.revive_many("payments", ["x"])
        assert locked.requests_sent == 0


async def test_a_patch_applied_is_not_reported_failed_when_the_read_after_it_fails():
    """Real Unleash answers a PATCH with a short row and flagtui reads the full record; if
    that read fails, the write still happened: the short answer is returned, not the error."""
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        if request.method == "PATCH":
            return httpx.Response(200, json={"name": "f", "stale": True, "archived": False})
        return httpx.Response(503, text="busy")

    transport = httpx.MockTransport(handler)
    async with AdminClient("http://x.test", "*:*.t", transport=transport, retry_delays=()) as api:
        updated = await api.features.patch("p", "f", [{"op": "replace", "path": "/stale",
                                                      "value": True}])  # fmt: skip
    assert updated.stale is True
    assert seen == ["PATCH", "GET"]
