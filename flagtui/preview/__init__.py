"""Evaluation previews with the SDKs' own engine (yggdrasil-engine), UI-free.

A flag as the admin API returns it (`GET /api/admin/projects/:p/features/:f`, as a dict or a
pydantic model) and the server's segments (`GET /api/admin/segments`) are turned into what
`/api/client/features` serves for one environment and fed to the engine, so the answer is
what an SDK gives. A proposed change is a modified copy of the flag's record.

    evaluate(flag, "production", {"userId": "u-1"}, segments=segments)  # -> Evaluation
    before_after(flag, proposed, "production", {"userId": "u-1"})       # -> Change
    population(flag, "production", 10_000)                              # -> Population
    Preview(flag, "production")  # loaded once: .evaluate(context), .population(n, context)

`related`: the flags `flag` depends on (their records), needed to evaluate a child flag.
Errors: `PreviewError` (an environment, segment or parent flag the preview was not given).
"""

from flagtui.preview.client_shape import PreviewError, Record, client_feature, client_state
from flagtui.preview.context import sdk_context
from flagtui.preview.engine import (
    Change,
    Evaluation,
    Population,
    Preview,
    before_after,
    evaluate,
    population,
)

__all__ = [
    "Change",
    "Evaluation",
    "Population",
    "Preview",
    "PreviewError",
    "Record",
    "before_after",
    "client_feature",
    "client_state",
    "evaluate",
    "population",
    "sdk_context",
]
