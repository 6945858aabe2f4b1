"""The admin client against real Unleash OSS 8.x: each supported operation end to end, and each
Enterprise-only one explaining itself."""

from __future__ import annotations

import asyncio

import pytest
from real_revive import wait_until_archived, wait_until_revived

from flagtui.api import AdminClient, NotSupported, errors
from flagtui.api.models import PatchOperation

pytestmark = pytest.mark.unleash


async def test_connect_detects_oss_and_its_version(real_client):
    assert real_client.server is not None
    assert real_client.server.edition == "oss"
    assert real_client.server.version.split(".")[0].isdigit()
    assert real_client.server.label.startswith("OSS ")


async def test_patch_returns_the_full_feature_after_the_short_answer(real_client, real_feature):
    ops = [
        PatchOperation(op="replace", path="/description", value="patched by flagtui"),
        PatchOperation(op="replace", path="/stale", value=True),
    ]
    updated = await real_client.features.patch("default", real_feature, ops)
    assert updated.is_full
    assert updated.description == "patched by flagtui"
    assert updated.stale is True
    again = await real_client.features.get("default", real_feature)
    assert (again.description, again.stale) == ("patched by flagtui", True)


async def test_patch_of_a_missing_feature_is_not_found(real_client):
    with pytest.raises(errors.NotFoundError) as caught:
        await real_client.features.patch(
            "default", "no-such-flag-xyz", [{"op": "replace", "path": "/stale", "value": True}]
        )
    assert "PATCH /api/admin/projects/default/features/no-such-flag-xyz" in str(caught.value)


async def test_event_search_falls_back_to_the_get_route(real_client, real_feature):
    await real_client.features.patch(
        "default", real_feature, [{"op": "replace", "path": "/description", "value": "evt"}]
    )
    page = await real_client.events.search(feature=real_feature, limit=10)
    types = [e.type for e in page.events]
    assert "feature-metadata-updated" in types
    assert all(e.feature_name == real_feature for e in page.events)
    assert page.total is not None and page.total >= len(page.events)


async def test_event_search_pages_without_overlap(real_client):
    first = await real_client.events.search(limit=2)
    assert first.next_cursor is not None
    second = await real_client.events.search(limit=2, cursor=first.next_cursor)
    boundary = first.events[-1].created_at
    assert all(e.created_at <= boundary for e in second.events)
    # Unleash up to 6.x orders its POST search by time alone: events of one millisecond may
    # change places between two reads (7+ orders by time, then id).
    both = {e.id for e in first.events} & {e.id for e in second.events}
    assert all(e.created_at == boundary for e in second.events if e.id in both)


async def _stage(client: AdminClient, feature: str, wanted: str) -> str | None:
    """Real Unleash records lifecycle stages asynchronously: wait (bounded) for one."""
    stage = None
    for _ in range(50):
        found = await client.features.get("default", feature)
        stage = found.lifecycle.stage if found.lifecycle else None
        if stage == wanted:
            break
        await asyncio.sleep(0.2)
    return stage


async def test_uncomplete_returns_to_the_previous_stage(real_client, unleash_admin, real_feature):
    assert await _stage(real_client, real_feature, "initial") == "initial"
    done = await unleash_admin.post(
        f"/api/admin/projects/default/features/{real_feature}/lifecycle/complete",
        json={"status": "kept"},
    )
    assert done.status_code == 200, done.text
    assert await _stage(real_client, real_feature, "completed") == "completed"
    await real_client.features.uncomplete("default", real_feature)
    assert await _stage(real_client, real_feature, "initial") == "initial"


async def test_uncomplete_of_an_unknown_flag_is_not_found(real_client, unleash_admin):
    """Real Unleash answers 200 to it (the client read nothing first before: exit 0, "done")."""
    path = "/api/admin/projects/default/features/no-such-flag-anywhere/lifecycle/uncomplete"
    assert (await unleash_admin.post(path)).status_code == 200
    with pytest.raises(errors.NotFoundError):
        await real_client.features.uncomplete("default", "no-such-flag-anywhere")


async def test_feature_type_lifetime_round_trip(real_client):
    types = {t.id: t for t in await real_client.feature_types.list()}
    original = types["operational"].lifetime_days
    try:
        updated = await real_client.feature_types.update_lifetime("operational", 11)
        assert updated.lifetime_days == 11
        again = {t.id: t for t in await real_client.feature_types.list()}
        assert again["operational"].lifetime_days == 11
    finally:
        await real_client.feature_types.update_lifetime("operational", original)


async def test_lifetime_of_an_unknown_type_is_not_found(real_client):
    with pytest.raises(errors.NotFoundError):
        await real_client.feature_types.update_lifetime("no-such-type", 3)


async def test_user_search_reads_the_bare_array(real_client):
    found = await real_client.users.search("ad")
    assert any("admin" in (u.username or u.email or u.name or "").lower() for u in found.users)


async def test_environment_removal_unlinks_it(real_client, unleash_admin):
    envs = {e.name: e for e in await real_client.environments.list("default")}
    assert envs["development"].visible
    try:
        await real_client.environments.remove("default", "development")
        after = {e.name: e for e in await real_client.environments.list("default")}
        assert not after["development"].visible
    finally:
        await unleash_admin.post(
            "/api/admin/projects/default/environments", json={"environment": "development"}
        )


async def test_integration_events_of_a_failing_webhook(real_client, real_webhook):
    deliveries = await real_client.integrations.events(real_webhook, limit=10)
    assert deliveries
    assert all(d.integration_id == real_webhook for d in deliveries)
    assert deliveries[0].state == "failed"
    assert deliveries[0].event is not None
    assert deliveries[0].event.type == "feature-metadata-updated"
    # Newest first by id, as Unleash's store orders them; two deliveries a millisecond apart
    # may carry their created_at out of that order (seen in CI), so the times are no key.
    ids = [int(d.id) for d in deliveries]
    assert ids == sorted(ids, reverse=True)
    listed = await real_client.integrations.list()
    assert any(a.id == real_webhook for a in listed.addons)


async def test_enterprise_operations_explain_themselves(real_client):
    with pytest.raises(NotSupported, match="needs Unleash Enterprise"):
        await real_client.access.grant("default", roles=[4], users=[1], groups=[])
    with pytest.raises(NotSupported, match=r"this server is OSS \d"):
        await real_client.change_requests.delete("default", 1)
    with pytest.raises(NotSupported):
        await real_client.change_requests.list("default")


async def test_enterprise_routes_are_recognised_without_connect(real_unleash):
    """Even before ui-config is read, OSS's 404 "not available" becomes NotSupported."""
    async with AdminClient(real_unleash.url, real_unleash.token) as client:
        with pytest.raises(NotSupported):
            await client.change_requests.delete("default", 1)


async def test_bad_token_is_authentication_required(real_unleash):
    async with AdminClient(real_unleash.url, "*:*.not-a-real-token") as client:
        with pytest.raises(errors.AuthenticationRequired) as caught:
            await client.feature_types.list()
    assert "not-a-real-token" not in str(caught.value)


async def test_archive_is_found_in_the_archive_then_revived(
    real_client, real_feature, unleash_admin
):
    """Unleash's archive (DELETE), then the archive's row, then its revive; each read first."""
    before = await real_client.features.archive("default", real_feature)
    await wait_until_archived(unleash_admin, "default", real_feature)
    assert before.name == real_feature and not before.is_archived
    with pytest.raises(errors.NothingToSend, match="already archived"):
        await real_client.features.archive("default", real_feature)
    listed = await real_client.archived.list("default", query=real_feature)
    assert real_feature in [f.name for f in listed.features]
    opened = await real_client.features.get_or_archived("default", real_feature)
    assert opened.is_archived
    assert opened.environments is not None  # the archive's row, not the short answer
    await real_client.features.revive("default", real_feature)
    await wait_until_revived(real_client, "default", real_feature)
    live = await real_client.features.get("default", real_feature)
    assert not live.is_archived
    assert await real_client.archived.find("default", real_feature) is None
    with pytest.raises(errors.NothingToSend, match="not archived"):
        await real_client.features.revive("default", real_feature)
