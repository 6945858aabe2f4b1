"""The nine operations through the admin client, against the sandbox over real HTTP: each success
path and each error status the contract lists for it."""

from __future__ import annotations

import httpx
import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import PatchOperation

STALE = PatchOperation(op="replace", path="/stale", value=True)


# 1. PATCH feature: 200, 401, 403, 404, 415
async def test_patch_updates_and_answers_the_full_feature(admin, some_feature):
    ops = [
        PatchOperation(op="replace", path="/description", value="Checkout v2 rollout"),
        PatchOperation(op="replace", path="/impressionData", value=True),
    ]
    sent = admin.requests_sent
    updated = await admin.features.patch("payments", some_feature.name, ops)
    assert admin.requests_sent == sent + 1  # the sandbox answers the full record: no re-read
    assert updated.is_full
    assert (updated.description, updated.impression_data) == ("Checkout v2 rollout", True)
    reread = await admin.features.get("payments", some_feature.name)
    assert (reread.description, reread.impression_data) == ("Checkout v2 rollout", True)


async def test_patch_unknown_feature_is_not_found(admin):
    with pytest.raises(errors.NotFoundError) as caught:
        await admin.features.patch("payments", "no-such-flag", [STALE])
    assert caught.value.status == 404
    assert (
        caught.value.tried
        == "PATCH /api/admin/projects/payments/features/no-such-flag (profile sandbox-admin)"
    )


async def test_patch_without_a_valid_token_is_authentication_required(stranger, some_feature):
    with pytest.raises(errors.AuthenticationRequired) as caught:
        await stranger.features.patch("payments", some_feature.name, [STALE])
    assert caught.value.name == "AuthenticationRequired"


async def test_patch_by_a_viewer_is_no_access(viewer, some_feature):
    with pytest.raises(errors.NoAccessError) as caught:
        await viewer.features.patch("payments", some_feature.name, [STALE])
    assert caught.value.name == "NoAccessError"


class _MangleContentType(httpx.AsyncBaseTransport):
    """A middlebox that rewrites the content type of what passes through it."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.headers["content-type"] = "application/json-patch+json"
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def test_patch_with_a_mangled_content_type_is_a_content_type_error(sandbox, some_feature):
    async with AdminClient(sandbox.url, sandbox.admin_token, transport=_MangleContentType()) as c:
        with pytest.raises(errors.ContentTypeError) as caught:
            await c.features.patch("payments", some_feature.name, [STALE])
    assert caught.value.status == 415


async def test_patch_with_a_value_the_server_refuses_is_a_validation_error(admin, some_feature):
    with pytest.raises(errors.ValidationError) as caught:
        await admin.features.patch(
            "payments", some_feature.name, [{"op": "replace", "path": "/stale", "value": "x"}]
        )
    assert caught.value.message


# 2. integration events: 200, 401, 403, 404
async def test_integration_events_page_newest_first(admin):
    addons = (await admin.integrations.list()).addons
    first = await admin.integrations.events(addons[0].id, limit=5)
    second = await admin.integrations.events(addons[0].id, limit=5, offset=5)
    assert len(first) == 5
    assert all(e.integration_id == addons[0].id for e in first + second)
    assert {e.id for e in first}.isdisjoint({e.id for e in second})
    stamps = [e.created_at for e in first + second]
    assert stamps == sorted(stamps, reverse=True)


async def test_integration_events_record_failures_with_details(admin):
    states = set()
    for addon in (await admin.integrations.list()).addons:
        states |= {e.state for e in await admin.integrations.events(addon.id, limit=100)}
    assert {"success", "failed"} <= states


async def test_integration_events_of_an_unknown_integration_is_not_found(admin):
    with pytest.raises(errors.NotFoundError):
        await admin.integrations.events(99999)


async def test_integration_events_need_a_token(stranger):
    with pytest.raises(errors.AuthenticationRequired):
        await stranger.integrations.events(1)


# 3. remove an environment: 200, 400, 401, 403
async def test_remove_environment_unlinks_it(admin):
    await admin.environments.remove("payments", "qa")
    envs = {e.name: e.visible for e in await admin.environments.list("payments")}
    assert envs["qa"] is False and envs["production"] is True


async def test_remove_unknown_environment_is_a_validation_error(admin):
    with pytest.raises(errors.ValidationError):
        await admin.environments.remove("payments", "no-such-env")


async def test_remove_environment_by_a_viewer_is_no_access(viewer, admin):
    with pytest.raises(errors.NoAccessError):
        await viewer.environments.remove("payments", "qa")
    envs = {e.name: e.visible for e in await admin.environments.list("payments")}
    assert envs["qa"] is True


async def test_remove_environment_needs_a_token(stranger):
    with pytest.raises(errors.AuthenticationRequired):
        await stranger.environments.remove("payments", "qa")


# 4. project access
async def test_access_grants_each_role_to_each_user_and_group(admin):
    await admin.access.grant("growth", roles=[5, 6], users=[7], groups=[3])
    access = await admin.access.get("growth")
    user = next(u for u in access.users if u.id == 7)
    group = next(g for g in access.groups if g.id == 3)
    assert {5, 6} <= set(user.roles) and {5, 6} <= set(group.roles)
    assert user.label and group.label


async def test_access_with_an_unknown_role_is_a_validation_error(admin):
    with pytest.raises(errors.ValidationError):
        await admin.access.grant("growth", roles=[999], users=[7], groups=[])


# 5. uncomplete: 200, 401, 403, 404
async def test_uncomplete_goes_back_to_the_previous_stage(admin):
    completed = (
        await admin.features.search(FeatureQuery(lifecycle=["completed"], limit=1))
    ).features[0]
    assert completed.project is not None
    await admin.features.uncomplete(completed.project, completed.name)
    after = await admin.features.get(completed.project, completed.name)
    assert after.lifecycle is not None
    assert after.lifecycle.stage in ("initial", "pre-live", "live")


async def test_uncomplete_unknown_feature_is_not_found(admin):
    with pytest.raises(errors.NotFoundError):
        await admin.features.uncomplete("payments", "no-such-flag")


async def test_uncomplete_by_a_viewer_is_no_access(viewer, some_feature):
    with pytest.raises(errors.NoAccessError):
        await viewer.features.uncomplete("payments", some_feature.name)


async def test_uncomplete_needs_a_token(stranger, some_feature):
    with pytest.raises(errors.AuthenticationRequired):
        await stranger.features.uncomplete("payments", some_feature.name)


# 6. feature type lifetime
@pytest.mark.parametrize("days", [0, 1, 2_147_483_647, None])
async def test_lifetime_accepts_the_contract_range(admin, days):
    updated = await admin.feature_types.update_lifetime("experiment", days)
    assert updated.id == "experiment"
    assert updated.lifetime_days in (days, None) if days == 0 else updated.lifetime_days == days
    listed = {t.id: t.lifetime_days for t in await admin.feature_types.list()}
    assert listed["experiment"] == updated.lifetime_days


async def test_lifetime_change_reevaluates_potential_staleness(admin):
    await admin.feature_types.update_lifetime("release", 1)
    stale = await admin.features.search(
        FeatureQuery(types=["release"], states=["potentially-stale"], limit=1)
    )
    await admin.feature_types.update_lifetime("release", None)
    never = await admin.features.search(
        FeatureQuery(types=["release"], states=["potentially-stale"], limit=1)
    )
    assert stale.total > 0
    assert never.total == 0


async def test_lifetime_of_an_unknown_type_is_not_found(admin):
    with pytest.raises(errors.NotFoundError):
        await admin.feature_types.update_lifetime("no-such-type", 3)


# 7. user search
async def test_user_search_matches_name_and_email(admin):
    found = await admin.users.search("AN")
    assert found.users
    assert all(
        "an" in f"{u.name or ''} {u.email or ''} {u.username or ''}".lower() for u in found.users
    )
    assert {r.name for r in found.root_roles} >= {"Admin", "Editor", "Viewer"}


async def test_user_search_with_no_match_is_empty(admin):
    assert (await admin.users.search("zzqx-nobody")).users == []


# 8. delete a change request: 200
async def test_delete_change_request(admin):
    victim = (await admin.change_requests.list("payments"))[0]
    await admin.change_requests.delete("payments", victim.id)
    with pytest.raises(errors.NotFoundError):
        await admin.change_requests.get("payments", victim.id)
    remaining = await admin.change_requests.list("payments")
    assert victim.id not in {cr.id for cr in remaining}


async def test_change_requests_carry_typed_approvals_rejections_and_comments(admin):
    listed = await admin.change_requests.list("payments")
    reviews = [r for cr in listed for r in (cr.approvals or []) + (cr.rejections or [])]
    comments = [c for cr in listed for c in cr.comments or []]
    assert reviews and comments
    assert all(r.created_by and r.created_by.username and r.created_at for r in reviews)
    assert all(c.text and c.created_by and c.created_at for c in comments)


async def test_delete_unknown_change_request_is_not_found(admin):
    with pytest.raises(errors.NotFoundError):
        await admin.change_requests.delete("payments", 987654)


# 9. event search: 200
async def test_event_search_filters_and_pages_by_event_id(admin):
    first = await admin.events.search(type="feature-metadata-updated", limit=10)
    assert first.total is not None and first.total > 10
    assert {e.type for e in first.events} == {"feature-metadata-updated"}
    second = await admin.events.search(
        type="feature-metadata-updated", limit=10, cursor=first.next_cursor
    )
    assert first.events[-1].id > second.events[0].id
    assert {e.id for e in first.events}.isdisjoint({e.id for e in second.events})


async def test_each_write_is_found_in_event_search_with_data_and_pre_data(admin, some_feature):
    before = some_feature.description
    await admin.features.patch(
        "payments", some_feature.name, [{"op": "replace", "path": "/description", "value": "v2"}]
    )
    page = await admin.events.search(feature=some_feature.name, limit=1)
    event = page.events[0]
    assert event.type == "feature-metadata-updated"
    assert event.data["description"] == "v2"
    assert event.pre_data["description"] == before
    assert event.project == "payments"


async def test_event_search_free_text(admin):
    page = await admin.events.search(query="payments", limit=20)
    assert page.events


# read-only: one check in the client, before any request is built
async def test_read_only_profile_sends_no_write(sandbox_app, some_feature):
    seen: list[str] = []

    async def counting(scope, receive, send):
        if scope["type"] == "http":
            seen.append(f"{scope['method']} {scope['path']}")
        await sandbox_app(scope, receive, send)

    transport = httpx.ASGITransport(app=counting)
    token = sandbox_app.state.admin_token
    async with AdminClient("http://sandbox", token, read_only=True, transport=transport) as c:
        writes = [
            c.features.patch("payments", some_feature.name, [STALE]),
            c.environments.remove("payments", "qa"),
            c.access.grant("growth", roles=[5], users=[7], groups=[]),
            c.features.uncomplete("payments", some_feature.name),
            c.feature_types.update_lifetime("release", 3),
            c.change_requests.delete("payments", 1),
        ]
        for write in writes:
            with pytest.raises(errors.ReadOnlyProfile):
                await write
        assert seen == []
        await c.feature_types.list()  # reads still work
    assert seen == ["GET /api/admin/feature-types"]
