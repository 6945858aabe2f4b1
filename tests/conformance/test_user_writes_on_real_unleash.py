"""Creating a user and changing their root role through AdminClient against real Unleash OSS
(what `flagtui/api/users.py` says it does), each write's event checked. The users the test
created are deleted afterwards; no other."""

from __future__ import annotations

import uuid

import pytest

from flagtui.api import errors
from flagtui.api.users import pick_role

pytestmark = pytest.mark.unleash


async def test_a_user_is_created_and_their_root_role_changed(real_client, unleash_admin):
    suffix = uuid.uuid4().hex[:8]
    email = f"conformance-{suffix}@example.com"
    roles = (await real_client.users.list()).root_roles
    viewer, editor = pick_role(roles, "Viewer"), pick_role(roles, "editor")
    body = real_client.users.create_body(
        name=f"Conformance {suffix}", email=email, username=f"conf{suffix}", root_role=viewer.id
    )
    user = await real_client.users.create(body)
    try:
        assert (user.email, user.root_role) == (email, viewer.id)
        assert user.invite_link and "/new-user?token=" in user.invite_link
        page = await real_client.events.search(type="user-created", limit=20)
        created = next(e for e in page.events if (e.data or {}).get("id") == user.id)
        assert created.data == {
            "id": user.id,
            "name": f"Conformance {suffix}",
            "email": email,
            "username": f"conf{suffix}",
            "rootRole": viewer.id,
        }
        changed = await real_client.users.set_root_role(user.id, editor.id)
        assert (changed.root_role, changed.email) == (editor.id, email)
        listed = next(u for u in (await real_client.users.list()).users if u.id == user.id)
        assert listed.root_role == editor.id
        page = await real_client.events.search(type="user-updated", limit=20)
        updated = next(e for e in page.events if (e.data or {}).get("id") == user.id)
        assert (updated.pre_data["rootRole"], updated.data["rootRole"]) == (viewer.id, editor.id)
        with pytest.raises(errors.ApiError) as taken:
            await real_client.users.create(body)
        assert taken.value.status == 400 and "User already exists" in taken.value.message
    finally:
        await unleash_admin.delete(f"/api/admin/user-admin/{user.id}")


async def test_an_unknown_user_or_role_is_refused(real_client):
    with pytest.raises(errors.NotFoundError) as unknown:
        await real_client.users.set_root_role(987654321, 3)
    assert unknown.value.message == "No user found"
    suffix = uuid.uuid4().hex[:8]
    body = real_client.users.create_body(
        name=None, email=f"conformance-{suffix}@example.com", username=None, root_role=987654
    )
    with pytest.raises(errors.ApiError) as role:
        await real_client.users.create(body)
    assert role.value.status == 400 and "Could not find rootRole=987654" in role.value.message
