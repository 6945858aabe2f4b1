"""`client.users`: every user with their root role, the user search (operation 7), creating a
user and changing a user's root role.

What real Unleash does (OSS 6.10.1, 7.5.1 and 8.2.0, checked):
- POST /api/admin/user-admin `{name, email, username, rootRole, password?, sendEmail}` answers
  201 with the user, `inviteLink` included (a link with a reset token in it: flagtui masks it);
  an e-mail or username already taken is 400 "User already exists", an unknown root role 400
  "Could not find rootRole=N", an e-mail that is not one 400. Records `user-created` (data: id,
  name, email, rootRole, and username when given).
- PUT /api/admin/user-admin/:id `{rootRole}` answers 200 with the user; other fields are kept.
  An unknown id is 404 "No user found". Records `user-updated` (preData: the user before).
"""

from __future__ import annotations

from flagtui.api import errors, validation
from flagtui.api.core import Core
from flagtui.api.models import Role, User, UserList
from flagtui.api.wire import UserSearchAnswer, adapter, seg

MAX_TEXT = 255


def _text(field: str, value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if len(value) > MAX_TEXT:
        raise errors.InvalidArgument(field, f"at most {MAX_TEXT} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise errors.InvalidArgument(field, "no control characters")
    return value


def pick_role(roles: list[Role], wanted: str) -> Role:
    """A root role by its id or its name (any case)."""
    for role in roles:
        if str(role.id) == wanted or role.name.casefold() == wanted.casefold():
            return role
    known = ", ".join(f"{r.name} ({r.id})" for r in roles) or "none listed"
    raise errors.InvalidArgument("rootRole", f"one of the server's root roles: {known}")


def pick_user(users: list[User], wanted: str) -> User:
    """A user by id, username or e-mail (exactly)."""
    for user in users:
        if wanted in (str(user.id), user.username, user.email):
            return user
    raise errors.NotFoundError("GET", "/api/admin/user-admin", message=f"no user {wanted!r}")


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

    @staticmethod
    def create_body(
        *,
        name: str | None,
        email: str | None,
        username: str | None,
        root_role: int,
        password: str | None = None,
    ) -> dict[str, object]:
        """The create request's body, checked (an e-mail or a username is needed; no e-mail is
        sent). `password` goes in the body only: a caller shows it masked."""
        body: dict[str, object] = {"rootRole": root_role, "sendEmail": False}
        for field, value in (("name", name), ("email", email), ("username", username)):
            if (checked := _text(field, value)) is not None:
                body[field] = checked
        if "email" not in body and "username" not in body:
            raise errors.InvalidArgument("email", "an e-mail or a username is needed")
        if "email" in body and "@" not in str(body["email"]):
            raise errors.InvalidArgument("email", "an e-mail address (name@host)")
        if password:
            body["password"] = password
        return body

    async def create(self, body: dict[str, object]) -> User:
        answer = await self._core.write(
            "create user", "POST", "/api/admin/user-admin", adapter(User), json=body
        )
        if answer is None:
            raise errors.OutcomeUnknown("POST", "/api/admin/user-admin", message="no user")
        return answer

    async def set_root_role(self, user_id: int, root_role: int) -> User:
        path = f"/api/admin/user-admin/{seg(user_id)}"
        answer = await self._core.write(
            "change root role", "PUT", path, adapter(User), json={"rootRole": root_role}
        )
        if answer is None:
            raise errors.OutcomeUnknown("PUT", path, message="no user")
        return answer
