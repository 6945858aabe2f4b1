"""The async admin client: httpx + pydantic models + typed errors. Imports no UI, no sandbox."""

from flagtui.api.client import AdminClient
from flagtui.api.errors import (
    ApiError,
    FlagtuiError,
    InvalidArgument,
    NotSupported,
    RateLimited,
    ReadOnlyProfile,
    RequestTimeout,
)

__all__ = [
    "AdminClient",
    "ApiError",
    "FlagtuiError",
    "InvalidArgument",
    "NotSupported",
    "RateLimited",
    "ReadOnlyProfile",
    "RequestTimeout",
]
