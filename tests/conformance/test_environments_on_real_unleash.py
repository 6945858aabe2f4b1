"""A flag switched per environment, an environment linked back, and users' root roles, through
AdminClient against real Unleash OSS (what `flagtui/api/environments.py` says it does)."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.capabilities import parse_version

pytestmark = pytest.mark.unleash


async def enabled_in(client: AdminClient, feature: str, environment: str) -> bool | None:
    found = await client.features.get("default", feature)
    return next(e.enabled for e in found.environments or [] if e.name == environment)


async def switch_events(client: AdminClient, feature: str) -> list[tuple[str, str | None]]:
    page = await client.events.search(feature=feature, limit=50)
    return [
        (e.type, e.environment) for e in page.events if e.type.startswith("feature-environment-")
    ]


async def test_switch_on_and_off_with_one_event_per_change(real_client, real_feature):
    assert await enabled_in(real_client, real_feature, "development") is False
    assert (
        await real_client.features.set_environment_enabled(
            "default", real_feature, "development", True
        )
        is None
    )  # 200 with no body
    found = await real_client.features.get("default", real_feature)
    development = next(e for e in found.environments or [] if e.name == "development")
    assert development.enabled is True
    assert [s.name for s in development.strategies or []] == ["flexibleRollout"]  # the default
    await real_client.features.set_environment_enabled("default", real_feature, "development", True)
    await real_client.features.set_environment_enabled(
        "default", real_feature, "development", False
    )
    assert await enabled_in(real_client, real_feature, "development") is False
    assert await switch_events(real_client, real_feature) == [
        ("feature-environment-disabled", "development"),
        ("feature-environment-enabled", "development"),
    ]  # the second "on" changed nothing: no event
    page = await real_client.events.search(feature=real_feature, limit=50)
    enabled = next(e for e in page.events if e.type == "feature-environment-enabled")
    # The token's author, whatever the token is named: the one the flag's creation names.
    created = next(e for e in page.events if e.type == "feature-created")
    assert created.created_by
    assert (enabled.project, enabled.created_by) == ("default", created.created_by)


async def test_switch_refusals(real_client, real_feature, unleash_admin):
    with pytest.raises(errors.NotFoundError) as unknown_env:
        await real_client.features.set_environment_enabled("default", real_feature, "nope", True)
    assert unknown_env.value.message == (
        f"Could not find environment nope for feature: {real_feature}"
    )
    with pytest.raises(errors.NotFoundError):
        await real_client.features.set_environment_enabled(
            "default", f"{real_feature}-missing", "development", True
        )
    archived = await unleash_admin.delete(f"/api/admin/projects/default/features/{real_feature}")
    assert archived.status_code in (200, 202), archived.text
    with pytest.raises(errors.ValidationError) as caught:
        await real_client.features.set_environment_enabled(
            "default", real_feature, "development", False
        )
    assert caught.value.name == "ArchivedFeatureError"


async def test_link_an_environment_back(real_client, unleash_admin):
    try:
        await real_client.environments.remove("default", "development")
        await real_client.environments.link("default", "development")
        envs = {e.name: e.visible for e in await real_client.environments.list("default")}
        assert envs["development"] is True
        page = await real_client.events.search(project="default", limit=5)
        added = next(e for e in page.events if e.type == "project-environment-added")
        assert added.environment == "development"
        with pytest.raises(errors.ConflictError) as again:
            await real_client.environments.link("default", "development")
        assert again.value.name == "NameExistsError"
        version = parse_version(real_client.server.version) if real_client.server else None
        if version is not None and version < (7, 0, 0):
            # Unleash 6.x inserts first: a 500 from the database's foreign key.
            with pytest.raises(errors.ServerError, match="foreign key"):
                await real_client.environments.link("default", "nope")
        else:
            with pytest.raises(errors.ValidationError, match="Environment nope does not exist"):
                await real_client.environments.link("default", "nope")
    finally:  # whatever happened above, development is linked again
        await unleash_admin.post(
            "/api/admin/projects/default/environments", json={"environment": "development"}
        )


async def test_root_roles_come_from_the_user_list_not_the_search(real_client):
    found = await real_client.users.search("ad")
    assert found.users and found.root_roles == []
    assert all(u.root_role is None for u in found.users)
    listed = await real_client.users.list()
    names = {r.id: r.name for r in listed.root_roles}
    admin = next(u for u in listed.users if u.username == "admin")
    assert admin.root_role is not None and names[admin.root_role] == "Admin"
