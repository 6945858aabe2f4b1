"""The async admin client: httpx + pydantic models + typed errors. Imports no UI, no sandbox.

`AdminClient` (client.py) is a small core (core.py, over transport.py) and one resource object
per area (features.py, archived_flags.py, events.py, integrations.py, ...), each declaring its
methods once: `client.features.search(FeatureQuery(project="p"))`, `client.events.search()`.
"""

import sys

# httpx imports its command-line client whenever click is installed (uvicorn brings it for the
# sandbox), and with it click, pygments and rich.syntax: 20-40 ms of every start. flagtui never
# runs it; None in sys.modules makes that import fail, which httpx expects and handles.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

from flagtui.api.client import AdminClient  # noqa: E402
from flagtui.api.errors import (  # noqa: E402
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
from flagtui.api.feature_query import FeatureQuery  # noqa: E402

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
