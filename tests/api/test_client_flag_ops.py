"""`client.flag_ops` on the sandbox: what each operation refuses before any request (read-only,
a server without lifecycle stages, a live flag to delete), and what it sends otherwise."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.models import ServerInfo


async def test_a_read_only_profile_sends_none_of_them(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as locked:
        ops = locked.flag_ops
        calls = (
            ops.clone("payments", "x", "y"),
            ops.archived_rows("payments", ["x"]),
            ops.complete("payments", "x"),
            ops.plan_copy("payments", "x", "development", "production"),
        )
        for call in calls:
            with pytest.raises(errors.ReadOnlyProfile):
                await call
        assert locked.requests_sent == 0


async def test_complete_on_a_server_without_lifecycle_says_the_version_it_needs(
    admin, some_feature
):
    admin.server = ServerInfo(version="5.11.2", edition="oss")
    sent = admin.requests_sent
    with pytest.raises(errors.NotSupported) as refused:
        await admin.flag_ops.complete(some_feature.project, some_feature.name)
    assert "Flag lifecycle needs Unleash 5.12" in str(refused.value)
    assert admin.requests_sent == sent


async def test_delete_refuses_a_live_flag_before_sending(admin, some_feature):
    sent = admin.requests_sent
    with pytest.raises(errors.LiveFlag) as refused:
        await admin.flag_ops.archived_rows(some_feature.project, [some_feature.name])
    assert "archive it first" in str(refused.value)
    assert admin.requests_sent == sent + 1  # the read that found it live


async def test_clone_of_an_archived_flag_is_refused(admin, some_feature):
    project, name = some_feature.project, some_feature.name
    await admin.features.archive(project, name)
    with pytest.raises(errors.ArchivedFlag):
        await admin.flag_ops.clone(project, name, f"{name}-copy")
    with pytest.raises(errors.NotFoundError):
        await admin.features.get(project, f"{name}-copy")
