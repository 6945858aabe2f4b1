"""The per-environment writes and the user list through AdminClient, on the sandbox: typed
errors, read-only refused before any request, names checked before sending."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient, InvalidArgument, ReadOnlyProfile, errors


def enabled_in(feature, environment: str) -> bool | None:
    return next(e.enabled for e in feature.environments if e.name == environment)


async def test_switch_on_and_off_then_read(admin: AdminClient, some_feature) -> None:
    name = some_feature.name
    for enabled in (False, True, False):
        assert await admin.features.set_environment_enabled("payments", name, "qa", enabled) is None
        assert enabled_in(await admin.features.get("payments", name), "qa") is enabled
    page = await admin.events.search(feature=name, limit=5)
    switched = [e for e in page.events if e.type.startswith("feature-environment-")]
    assert switched[0].type == "feature-environment-disabled"
    assert (switched[0].project, switched[0].environment) == ("payments", "qa")


async def test_switch_errors_are_typed(admin: AdminClient, some_feature) -> None:
    with pytest.raises(errors.NotFoundError, match="Could not find environment nope"):
        await admin.features.set_environment_enabled("payments", some_feature.name, "nope", True)
    await admin.features.archive("payments", some_feature.name)
    with pytest.raises(errors.ValidationError) as caught:
        await admin.features.set_environment_enabled("payments", some_feature.name, "qa", True)
    assert caught.value.name == "ArchivedFeatureError"


async def test_names_are_checked_before_sending(admin: AdminClient) -> None:
    sent = admin.requests_sent
    with pytest.raises(InvalidArgument, match="environment: a non-empty name"):
        await admin.features.set_environment_enabled("payments", "x", " ", True)
    with pytest.raises(InvalidArgument, match="environment: a non-empty name"):
        await admin.environments.link("payments", "")
    assert admin.requests_sent == sent


async def test_read_only_refuses_before_any_request(sandbox) -> None:
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as client:
        with pytest.raises(ReadOnlyProfile, match="enable feature"):
            await client.features.set_environment_enabled("payments", "x", "qa", True)
        with pytest.raises(ReadOnlyProfile, match="link environment"):
            await client.environments.link("payments", "qa")
        assert client.requests_sent == 0


async def test_link_after_removal_and_its_conflict(admin: AdminClient) -> None:
    await admin.environments.remove("payments", "qa")
    await admin.environments.link("payments", "qa")
    envs = {e.name: e.visible for e in await admin.environments.list("payments")}
    assert envs["qa"] is True
    with pytest.raises(errors.ConflictError, match="already has the environment qa"):
        await admin.environments.link("payments", "qa")


async def test_list_users_has_each_users_root_role(admin: AdminClient) -> None:
    listed = await admin.users.list()
    roles = {r.id for r in listed.root_roles}
    assert listed.users and roles
    assert all(u.root_role in roles for u in listed.users)
