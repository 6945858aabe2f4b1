"""`client.api_tokens`: the server's API tokens (SDK and frontend keys): list, create, revoke.

What real Unleash does (OSS 6.10.1, 7.5.1 and 8.2.0, checked):
- GET /api/admin/api-tokens answers `{tokens}`, each with its `secret` in full, `tokenName`,
  `type` (client, frontend, admin), `projects`, `environment`, `createdAt`, `seenAt` (null until
  an SDK used it; written by a batch job, so it lags), `expiresAt`, `alias`; 8.x adds `secure`,
  6.x `username` (the token's name again).
- POST /api/admin/api-tokens `{tokenName, type, environment, projects, expiresAt?}` answers 201
  with the token, its secret included: the only answer flagtui shows it from. `type` is client,
  backend (7 and later) or frontend, any case; an admin type is a 400 on 7 and later, a 403
  OperationDeniedError on 6.10. A client token for every environment (`*`) is a 400, an unknown
  environment or project a 400 BadDataError. Names need not be unique. Records
  `api-token-created`, whose data holds no secret.
- DELETE /api/admin/api-tokens/:secret answers 200, even for a token that does not exist:
  only a read afterwards proves the revoke. Records `api-token-deleted` (preData: the token,
  without its secret). A revoked token may still be accepted for a short while (the server's
  token cache), as seen on all three.

The secret is kept out of `repr`, of every error (`errors.ApiError` masks the path) and of the
event data flagtui shows (`masking`). Tokens are named, and chosen for a revoke, by their name
or their `ref`: a digest of the secret that tells two tokens apart and reveals nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime

from pydantic import Field

from flagtui.api import errors
from flagtui.api.core import Core
from flagtui.api.records import Record
from flagtui.api.wire import adapter, seg

TOKEN_TYPES = ("client", "backend", "frontend")
MAX_NAME = 255
MASK = "•••••"


class ApiToken(Record):
    secret: str = Field(default="", repr=False)
    token_name: str = ""
    type: str = ""
    project: str | None = None
    projects: list[str] = Field(default_factory=list)
    environment: str | None = None
    expires_at: datetime | None = None
    created_at: datetime | None = None
    seen_at: datetime | None = None
    alias: str | None = None

    @property
    def ref(self) -> str:
        """Eight hex digits of the secret's SHA-256: which token, never the token."""
        return hashlib.sha256(self.secret.encode()).hexdigest()[:8]

    @property
    def masked_secret(self) -> str:
        """`default:development.•••••`: the scope the secret starts with, never its key."""
        scope, dot, _key = self.secret.rpartition(".")
        return f"{scope}.{MASK}" if dot and ":" in scope else MASK

    @property
    def legacy(self) -> bool:
        """A secret of the first format (no `project:environment.` scope in it)."""
        return bool(self.secret) and ":" not in self.secret

    @property
    def orphaned(self) -> bool:
        """Unleash's web UI's rule: a scoped secret for some projects whose projects are all
        gone, so that it now reads every project (Unleash 6.1 on)."""
        if self.legacy or self.secret.startswith("*:"):
            return False
        named = [p for p in self.projects if p != "*"] or (
            [self.project] if self.project and self.project != "*" else []
        )
        return not named

    def shown(self) -> dict[str, object]:
        """The token as printed: every field, the secret masked, its ref and marks added."""
        record = self.model_dump(mode="json", by_alias=True, exclude={"secret"})
        return {
            "ref": self.ref,
            **record,
            "secret": self.masked_secret,
            "orphaned": self.orphaned,
            "legacy": self.legacy,
        }


class ApiTokenList(Record):
    tokens: list[ApiToken]


def token_name(name: str) -> str:
    if not name.strip():
        raise errors.InvalidArgument("tokenName", "must not be empty")
    if len(name) > MAX_NAME:
        raise errors.InvalidArgument("tokenName", f"at most {MAX_NAME} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise errors.InvalidArgument("tokenName", "no control characters")
    return name


class ApiTokens:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self) -> list[ApiToken]:
        answer = await self._core.read("GET", "/api/admin/api-tokens", adapter(ApiTokenList))
        return answer.tokens

    def body(
        self,
        name: str,
        type_: str,
        environment: str,
        projects: Sequence[str] | None = None,
        expires_at: datetime | None = None,
    ) -> dict[str, object]:
        """The create request's body, checked: what --dry-run shows and `create` sends."""
        kind = type_.lower()
        if kind not in TOKEN_TYPES:
            raise errors.InvalidArgument("type", f"one of {', '.join(TOKEN_TYPES)}")
        if not environment:
            raise errors.InvalidArgument("environment", "must be given")
        if kind != "frontend" and environment == "*":
            raise errors.InvalidArgument(
                "environment", "a client token reads one environment, not '*'"
            )
        chosen = list(projects or ["*"])
        if any(not p for p in chosen):
            raise errors.InvalidArgument("projects", "no empty project name")
        body: dict[str, object] = {
            "tokenName": token_name(name),
            "type": kind,
            "environment": environment,
            "projects": chosen,
        }
        if expires_at is not None:
            body["expiresAt"] = expires_at.isoformat()
        return body

    async def create(self, body: dict[str, object]) -> ApiToken:
        """Create a token from `body` (made by `body`): its answer is the one time the secret
        is seen; nothing keeps it."""
        answer = await self._core.write(
            "create API token", "POST", "/api/admin/api-tokens", adapter(ApiToken), json=body
        )
        if answer is None or not answer.secret:
            raise errors.OutcomeUnknown(
                "POST", "/api/admin/api-tokens", message="the answer held no token"
            )
        return answer

    async def find(self, name_or_ref: str) -> ApiToken:
        """The one token named so (or with that ref); none or several is refused."""
        tokens = await self.list()
        found = [t for t in tokens if t.ref == name_or_ref] or [
            t for t in tokens if t.token_name == name_or_ref
        ]
        if not found:
            raise errors.NotFoundError(
                "GET", "/api/admin/api-tokens", message=f"no API token named {name_or_ref!r}"
            )
        if len(found) > 1:
            refs = ", ".join(t.ref for t in found)
            raise errors.InvalidArgument(
                "token", f"{len(found)} tokens are named {name_or_ref!r}: give its ref ({refs})"
            )
        return found[0]

    async def revoke(self, token: ApiToken) -> None:
        """Revoke `token`; its absence read back afterwards is the proof (the server answers
        200 whatever it deleted)."""
        path = f"/api/admin/api-tokens/{seg(token.secret)}"
        await self._core.write("revoke API token", "DELETE", path)
        if any(t.secret == token.secret for t in await self.list()):
            raise errors.OutcomeUnknown(
                "DELETE", path, message="the token is still listed after the revoke"
            )
