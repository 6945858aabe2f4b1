"""Typed errors of the admin client.

Each error says what was tried (method, path, profile) and what the server said (name, message,
details). None of them ever holds the token: messages are built from the request line only,
and a path that carries a secret (an API token's revoke) has it masked (`masked_path`).
"""

from __future__ import annotations

import re
from typing import Any

_SECRET_IN_PATH = re.compile(r"(/api/admin/api-tokens/)[^/?#]+")


def masked_path(path: str) -> str:
    """A request path as said: the secret of `DELETE /api/admin/api-tokens/:secret` masked."""
    return _SECRET_IN_PATH.sub("\\1•••••", path)


class FlagtuiError(Exception):
    """Base of every error the client raises; `str()` is a sentence a person understands."""


class InvalidArgument(FlagtuiError):
    """Input breaks a limit of the contract; raised before any request is built."""

    def __init__(self, field: str, limit: str) -> None:
        self.field = field
        self.limit = limit
        super().__init__(f"{field}: {limit}")


class ReadOnlyProfile(FlagtuiError):
    """A write was asked of a read-only profile; no request was built."""

    def __init__(self, profile: str, action: str) -> None:
        self.profile = profile
        self.action = action
        super().__init__(f"Profile {profile!r} is read-only: {action} was not sent.")


class NothingToSend(FlagtuiError):
    """The flag is already as the write would leave it (archived, live, not completed), read
    just before: nothing was sent. Real Unleash would accept the write anyway, and record
    another event (archive) or nothing at all (revive, uncomplete)."""

    def __init__(self, feature: str, state: str, action: str) -> None:
        self.feature = feature
        self.state = state
        self.action = action
        super().__init__(f"{feature} is {state}: {action} was not sent.")


class ArchivedFlag(FlagtuiError):
    """A change only a live flag can take, asked of an archived one (real Unleash answers 400
    ArchivedFeatureError): nothing was sent."""

    def __init__(self, feature: str, action: str) -> None:
        self.feature = feature
        self.action = action
        super().__init__(f"{feature} is archived: {action} was not sent (revive it first).")


class LiveFlag(FlagtuiError):
    """Deleting for good was asked of a flag that is not archived: nothing was sent."""

    def __init__(self, feature: str, project: str) -> None:
        self.feature = feature
        super().__init__(
            f"{feature} is not archived: delete was not sent. Only an archived flag can be"
            f" deleted; archive it first (flagtui feature archive {project} {feature})."
        )


class NotConnected(FlagtuiError):
    """A request failed while `connect()` failed too: the connection error says why."""

    def __init__(self, reason: BaseException) -> None:
        self.reason = reason
        super().__init__(f"Not connected: {reason}")


class NotSupported(FlagtuiError):
    """The server lacks the operation (an Enterprise feature on OSS, or a removed endpoint)."""

    def __init__(self, operation: str, server: str, needs: str = "Unleash Enterprise") -> None:
        self.operation = operation
        self.server = server
        self.needs = needs
        verb = "need" if _plural(operation) else "needs"  # "Change requests need …"
        super().__init__(f"{operation} {verb} {needs} (this server is {server}).")


def _plural(noun: str) -> bool:
    """An area's name ends in its head noun: "Integration deliveries", "Archived flags" are
    plural; "Project access", "Flag lifecycle" are not."""
    last = noun.rsplit(" ", 1)[-1]
    return last.endswith("s") and not last.endswith("ss")


class ApiError(FlagtuiError):
    """A request that did not succeed. Subclasses name the kind; `status` is None without answer."""

    status: int | None = None
    default_name = "Error"

    def __init__(
        self,
        method: str,
        path: str,
        *,
        status: int | None = None,
        name: str | None = None,
        message: str | None = None,
        details: list[dict[str, Any]] | None = None,
        profile: str | None = None,
    ) -> None:
        self.method = method
        self.path = masked_path(path)
        if status is not None:
            self.status = status
        self.name = name or self.default_name
        self.message = message or ""
        self.details = details or []
        self.profile = profile
        super().__init__(self.describe())

    @property
    def tried(self) -> str:
        where = f" (profile {self.profile})" if self.profile else ""
        return f"{self.method} {self.path}{where}"

    def describe(self) -> str:
        said = f"{self.name}: {self.message}" if self.message else self.name
        if self.status is not None:
            said = f"{self.status} {said}"
        extra = "; ".join(d.get("message", "") for d in self.details if d.get("message"))
        if extra and extra not in said:
            said = f"{said} ({extra})"
        return f"{self.tried} failed: {said}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.describe()!r})"


class ValidationError(ApiError):
    status = 400
    default_name = "ValidationError"


class AuthenticationRequired(ApiError):
    status = 401
    default_name = "AuthenticationRequired"


class NoAccessError(ApiError):
    status = 403
    default_name = "NoAccessError"


class NotFoundError(ApiError):
    status = 404
    default_name = "NotFoundError"


class ConflictError(ApiError):
    status = 409
    default_name = "ConflictError"


class ContentTypeError(ApiError):
    status = 415
    default_name = "ContentTypeError"


class RateLimited(ApiError):
    status = 429
    default_name = "RateLimited"

    def __init__(self, method: str, path: str, *, retry_after: float, **kwargs: Any) -> None:
        self.retry_after = retry_after
        super().__init__(method, path, **kwargs)

    def describe(self) -> str:
        return f"{super().describe()}; retry in {self.retry_after:g} s"


class ServerError(ApiError):
    status = 500
    default_name = "ServerError"


class UnexpectedResponse(ApiError):
    """The server answered, but not with the JSON the operation expects."""

    default_name = "UnexpectedResponse"


class Unreachable(ApiError):
    default_name = "Unreachable"


class RequestTimeout(ApiError):
    """No complete answer in time, for a read or a write that was not sent (not applied)."""

    default_name = "Timeout"


class OutcomeUnknown(ApiError):
    """A write that may have reached the server got no answer that proves its result: a
    timeout, a broken connection, a gateway's 502/503/504, or a success whose body is not the
    expected one. It may or may not have been applied. Re-read before sending again."""

    default_name = "OutcomeUnknown"
    CHECK = "the change may or may not have been applied: re-read before retrying"

    def describe(self) -> str:
        return f"{super().describe()}; {self.CHECK}"


class TlsError(ApiError):
    default_name = "TLSError"


_BY_STATUS: dict[int, type[ApiError]] = {
    400: ValidationError,
    401: AuthenticationRequired,
    403: NoAccessError,
    404: NotFoundError,
    409: ConflictError,
    415: ContentTypeError,
}


def error_for_status(status: int) -> type[ApiError]:
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status >= 500:
        return ServerError
    return ApiError
