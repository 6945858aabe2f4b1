"""Evaluation previews with the SDKs' own engine (yggdrasil-engine), UI-free.

A flag as the admin API returns it (`GET /api/admin/projects/:p/features/:f`, as a dict or a
pydantic model) and the server's segments (`GET /api/admin/segments`) are turned into what
`/api/client/features` serves for one environment and fed to the engine, so the answer is
what an SDK gives.

    evaluate(flag, "production", {"userId": "u-1"}, segments=segments)  # -> Evaluation
    before_after(flag, proposed, "production", {"userId": "u-1"})       # -> Change
    population(flag, "production", 10_000)                              # -> Population
    Preview(flag, "production")  # loaded once: .evaluate(context), .population(n, context)
    with_strategy(flag, "production", strategy_body)  # the record once Unleash stores it
    with_variants(flag, "production", variants_body)  # the same, for environment variants

A proposed change is built with `with_strategy` or `with_variants` from what will be sent:
the record as Unleash will store it (variants sorted by name, weights distributed, a gradual
rollout's defaults filled in; see `stored`), never the typed order.

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
from flagtui.preview.stored import stored_strategy, stored_variants, with_strategy, with_variants

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
    "stored_strategy",
    "stored_variants",
    "with_strategy",
    "with_variants",
]
