"""The async admin client: httpx + pydantic models + typed errors. Imports no UI, no sandbox.

`AdminClient` (client.py) is a small core (core.py, over transport.py) and one resource object
per area (features.py, archived_flags.py, events.py, integrations.py, ...), each declaring its
methods once: `client.features.search(FeatureQuery(project="p"))`, `client.events.search()`.
"""

from flagtui.api.client import AdminClient
from flagtui.api.errors import (
    ApiError,
    FlagtuiError,
    InvalidArgument,
    NothingToSend,
    NotSupported,
    OutcomeUnknown,
    RateLimited,
    ReadOnlyProfile,
    RequestTimeout,
)
from flagtui.api.feature_query import FeatureQuery

__all__ = [
    "AdminClient",
    "ApiError",
    "FeatureQuery",
    "FlagtuiError",
    "InvalidArgument",
    "NotSupported",
    "NothingToSend",
    "OutcomeUnknown",
    "RateLimited",
    "ReadOnlyProfile",
    "RequestTimeout",
]
