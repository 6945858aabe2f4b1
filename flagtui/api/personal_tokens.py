"""A personal access token (PAT) for the person at the keyboard, made at `flagtui login
--user NAME`: so that the event log names them, not a shared admin token.

What real Unleash does (OSS 6.10.1, 7.5.1 and 8.2.0, checked):
- POST /auth/simple/login `{username, password}` answers 200 with the user and sets the
  `unleash-session` cookie; a wrong password is 401 PasswordMismatch. (`ui-config` says
  `disablePasswordAuth` only to a signed-in caller; a server without the route answers 404.)
- POST /api/admin/user/tokens `{description, expiresAt}` needs that session (an API token is a
  403 "PATs require an authenticated user."): 201 with `{id, description, expiresAt, secret:
  "user:…"}`. `expiresAt` is required and must be in the future; a description the user
  already has is 409 NameExistsError. Records `pat-created` (7.x and 6.x show the secret as
  `***` in its data; 8.x leaves it out).
- POST /logout ends the session (302).

The password and the session live in this call only: sent once, never kept or shown.
"""

from __future__ import annotations

from datetime import datetime

import httpx

from flagtui import __version__
from flagtui.api import errors
from flagtui.api.connection import tls_context
from flagtui.api.errors import masked_path

LOGIN = "/auth/simple/login"
PATS = "/api/admin/user/tokens"


def _refusal(method: str, path: str, response: httpx.Response) -> errors.ApiError:
    try:
        body = response.json()
    except ValueError:
        body = {}
    body = body if isinstance(body, dict) else {}
    kind = errors.error_for_status(response.status_code)
    return kind(
        method, masked_path(path), status=response.status_code, name=body.get("name"),
        message=body.get("message") or response.reason_phrase,
    )  # fmt: skip


async def create_pat(
    base_url: str,
    username: str,
    password: str,
    *,
    description: str,
    expires_at: datetime,
    verify: bool | str = True,
    timeout: float = 10.0,
) -> str:
    """Sign in as `username`, create a PAT, sign out; the PAT's secret. Raises NotSupported
    where the server has no password sign-in or no PATs, ApiError for a refusal."""
    base = base_url.rstrip("/")
    headers = {"User-Agent": f"flagtui/{__version__}"}
    async with httpx.AsyncClient(
        base_url=base, verify=tls_context(verify), timeout=timeout, headers=headers
    ) as http:
        login = await http.post(LOGIN, json={"username": username, "password": password})
        if login.status_code == 404:
            raise errors.NotSupported("Password sign-in", base, needs=f"the route {LOGIN}")
        if login.status_code != 200:
            refused = _refusal("POST", LOGIN, login)
            if "disabled" in refused.message.lower():  # ui-config's disablePasswordAuth
                raise errors.NotSupported("Password sign-in", base, needs="it enabled") from None
            raise refused
        try:
            made = await http.post(
                PATS, json={"description": description, "expiresAt": expires_at.isoformat()}
            )
            if made.status_code == 404:
                raise errors.NotSupported("Personal access tokens", base, needs=f"the route {PATS}")
            if made.status_code != 201:
                raise _refusal("POST", PATS, made)
            secret = made.json().get("secret")
            if not isinstance(secret, str) or not secret:
                raise errors.OutcomeUnknown("POST", PATS, message="the answer held no token")
            return secret
        finally:
            await http.post("/logout")
