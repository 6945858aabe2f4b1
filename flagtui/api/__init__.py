"""The async admin client: httpx + pydantic models + typed errors. Imports no UI, no sandbox.

`AdminClient` (client.py) is a small core (core.py, over transport.py) and one resource object
per area (features.py, archived_flags.py, events.py, integrations.py, ...), each declaring its
methods once: `client.features.search(FeatureQuery(project="p"))`, `client.events.search()`.

Its names are imported when first asked for (`from flagtui.api import AdminClient` works as
ever): a module that needs one light part of the package (its errors, its models) does not
load the client and its HTTP library with it (issue 26).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from flagtui.lazy_names import lazy_names

if TYPE_CHECKING:
    from flagtui.api.client import AdminClient

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
_MODULE_OF = {"AdminClient": "client", "FeatureQuery": "feature_query"}


__getattr__ = lazy_names(__name__, __all__, _MODULE_OF, "errors")
