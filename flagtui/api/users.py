"""`client.users`: every user with their root role, and the user search (operation 7)."""

from __future__ import annotations

from flagtui.api import validation
from flagtui.api.core import Core
from flagtui.api.models import User, UserList
from flagtui.api.wire import UserSearchAnswer, adapter


class Users:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self) -> UserList:
        """Every user with their root role, and the root roles (ADMIN permission). Real
        Unleash's user search answers without root roles: this read has them."""
        return await self._core.read("GET", "/api/admin/user-admin", adapter(UserList))

    async def search(self, q: str) -> UserList:
        """Operation 7. Accepts the contract's {users, rootRoles} and real Unleash's bare array."""
        params = {"q": validation.user_query(q)}
        answer: UserList | list[User] = await self._core.read(
            "GET", "/api/admin/user-admin/search", adapter(UserSearchAnswer), params=params
        )
        return answer if isinstance(answer, UserList) else UserList(users=answer)
