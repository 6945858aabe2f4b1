"""Creating a user and changing a user's root role on the sandbox, as real Unleash 8.2 answers
them, with the events they record."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.conftest import assert_error, events_of

NEW = {"name": "Ada New", "email": "ada.new@example.com", "username": "adanew", "rootRole": 3}


async def test_a_created_user_is_listed_and_recorded(admin: httpx.AsyncClient) -> None:
    response = await admin.post("/api/admin/user-admin", json={**NEW, "sendEmail": False})
    assert response.status_code == 201, response.text
    user = response.json()
    assert (user["name"], user["username"], user["rootRole"]) == ("Ada New", "adanew", 3)
    assert "/new-user?token=" in user["inviteLink"]
    listed = (await admin.get("/api/admin/user-admin")).json()["users"]
    assert any(u["id"] == user["id"] and u["rootRole"] == 3 for u in listed)
    event = (await events_of(admin, type="user-created"))[0]
    assert event["data"] == {
        "id": user["id"],
        "name": "Ada New",
        "email": "ada.new@example.com",
        "username": "adanew",
        "rootRole": 3,
    }


async def test_a_root_role_change_is_stored_with_its_before(admin: httpx.AsyncClient) -> None:
    user = (await admin.post("/api/admin/user-admin", json=NEW)).json()
    response = await admin.put(f"/api/admin/user-admin/{user['id']}", json={"rootRole": 2})
    assert response.status_code == 200, response.text
    assert response.json()["rootRole"] == 2 and response.json()["email"] == NEW["email"]
    event = (await events_of(admin, type="user-updated"))[0]
    assert (event["preData"]["rootRole"], event["data"]["rootRole"]) == (3, 2)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({**NEW, "email": "admin@acme.example"}, "User already exists"),
        ({**NEW, "rootRole": 999}, "Could not find rootRole=999"),
        ({**NEW, "email": "notanemail"}, 'must be a valid email. You provided "notanemail"'),
    ],
)
async def test_bad_users_are_refused(admin: httpx.AsyncClient, body: dict, said: str) -> None:
    response = await admin.post("/api/admin/user-admin", json=body)
    assert_error(response, 400, "BadDataError")
    assert said in response.json()["message"]


async def test_an_unknown_user_is_404_and_the_viewer_may_not(
    admin: httpx.AsyncClient, viewer: httpx.AsyncClient
) -> None:
    assert_error(
        await admin.put("/api/admin/user-admin/99999", json={"rootRole": 2}), 404, "NotFoundError"
    )
    assert (await viewer.post("/api/admin/user-admin", json=NEW)).status_code == 403
