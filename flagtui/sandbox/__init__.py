"""The embedded sandbox: an Unleash-compatible admin API over SQLite, for trying flagtui
and for its tests.

It follows spec/admin-api.md to the letter. Where the contract says "not shown", the
sandbox behaves like real Unleash 8.2 (enterprise edition, since it serves the
enterprise-only operations), with these choices:

- Authentication: `Authorization: <token>` or `Bearer <token>`. Missing or unknown token:
  401 AuthenticationRequired, on every operation and browse read (user search included).
  The viewer token reads everything except what real Unleash reserves to the ADMIN
  permission: the integration events of an addon (`GET /api/admin/addons/:id/events`, the
  contract's 403 on endpoint 2) and the user list (`GET /api/admin/user-admin`); those and
  any write with it are 403 NoAccessError. User search, feature search and detail, event
  search, the addon list and ui-config stay open to it.
- Check order: 401, then 415 (a write with a body needs `Content-Type: application/json`),
  then 403, then 413 (bodies above 1 MiB, error name PayloadTooLargeError), then 400.
  A body that is not strict JSON (NaN, Infinity, numbers beyond a double, lone surrogates,
  invalid UTF-8, nesting deeper than Python's recursion limit) is a 400 ValidationError.
- Error names beyond the contract's table: 413 PayloadTooLargeError, 500 InternalError
  (never expected). A path the sandbox does not serve, or serves with other methods: 404
  NotFoundError "The path you were looking for (…) is not available." with that message in
  `details`, as real Unleash answers (no 405); under `/api/` a missing or unknown token is a
  401 first, as there.
- PATCH feature: the contract's five ops (`test` is a 400); only description, type, stale,
  impressionData and archived may change (400 otherwise). A type that is no feature type is
  stored, and `/archived` is only a mark (no archive event, lifecycle and environments as they
  were), as on real Unleash 6.10-8.2: the client refuses both before sending. A body that is
  not an array of `{op, path}` objects with a known op is a 400 first; on an unknown feature
  anything else wrong (a missing value, a path that does not exist) comes after its 404, as on
  real Unleash. Answers the full Feature record. See `feature_writes`.
- Archived features (the contract has no archive operations; real Unleash 8.2's): GET of an
  archived feature is a 404 "Could not find feature flag with name …" and the project's
  feature list leaves it out; PATCH still reaches it. Feature
  search finds archived features with `lifecycle` naming `archived` or `archived=IS:true`,
  combined with the other stages as real Unleash does (see `lifecycle_filter`). Older
  Unleash's `GET /api/admin/archive/features[/:project]` is gone in 8.2 (404 "not
  available"); the sandbox does not serve it either.
- Archive: DELETE /api/admin/projects/:p/features/:f, 202 no body: feature-archived, stage
  `archived`, environments kept; an archived feature is archived again (one more event), as
  on real Unleash. See `archive`.
- Feature tags: `GET /api/admin/features/:f/tags` answers `{version: 1, tags}` for a feature of
  any project, archived or not; unknown: 404 "Could not find feature with name …" (real
  Unleash's read, which flagtui needs where a version's feature payload carries no tags).
- Revive: POST /api/admin/projects/:p/revive `{features: [names]}`, 200 no body. Unknown
  project 404; a body without an array of strings 400 (real Unleash lets non-strings through);
  a name of another project's feature 403; unknown or live names are skipped. A revived
  feature restarts its lifecycle at `initial` with every environment disabled and records
  feature-revived (no data). See `archive`.
- Project batch routes (real Unleash 6.10-8.2): POST /projects/:p/archive, /stale and
  /bulk_features/environments/:env/on|off, each flag with its one-flag route's events; the
  switch is all or none. See `bulk_writes`.
- Uncomplete on a feature that is not completed: 200, nothing changes, no event.
- Feature type lifetime: 200 with the type; null/0 = never; 7.0 is 7 (real Unleash); negative,
  fractional or above 2147483647: 400; unknown type 404; staleness re-evaluated in the request.
  Potential staleness is in no record (as on real Unleash 6.10-8.2): only the feature
  search's `state=IS:potentially-stale` filter reads it.
- Environment removal: unknown project, unknown or unlinked environment: 400
  ValidationError (the contract lists no 404 here); removing the last one is allowed.
- Project access: 200 no body; unknown project 404; unknown or root role, user, group: 400.
- User search: `{users, rootRoles}` (the contract's shape; real Unleash answers a bare
  array); q under 2 characters: 400; substring match on name, e-mail, username.
- Change request delete: 200 no body; unknown id or project 404; any state can be deleted.
- Event search (POST): limit 1..100 (400 outside), offset is an event id (400 if negative),
  type must be one of the contract's event types (400 otherwise, null included, as on real
  Unleash 6.10; project, feature and query may be null).
- Event search (GET /search/events, real Unleash's): `createdBy` takes user ids, as real
  Unleash does (its admin token acts as -42); a name is a 400 here (a 500 there).
- Integration events: limit/offset are never refused (real Unleash 6.10 to 8.2): a limit that
  is not a number above 0 and up to 100 (`-1`, `abc`, `0`, `1000`) is 50, an offset that is
  not a positive number is 0, fractions are cut off; unknown addon 404 (contract; real
  Unleash answers an empty list).
- A created integration's deliveries succeed, unless its `url` is a loopback port that refuses a
  connection when it is created: each then fails with "status code: 500", as real Unleash 8.2
  says a delivery that got no answer (loopback targets allowed there).
- Integration events are forgotten like real Unleash forgets them (its integration events
  store's `cleanUpEvents`): only the newest 100 of the last 2 hours across all integrations,
  plus each integration's latest, are kept. Real Unleash applies it every 15 minutes; the
  sandbox after every recording, the worst case for a collector (`flagtui collect`), so what
  is tested against it holds on a real server. `--keep-all-deliveries` (`create_app` /
  `SandboxServer(keep_all_deliveries=True)`) keeps them all. The demo's generated history is
  older than 2 hours: the first write leaves each integration its latest delivery.
- Feature search rate limit (`rate_limit`), as real Unleash 8.2: 15 a minute per client IP
  (SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE, or `create_app(search_limit=)`), `RateLimit-*` headers
  on every answer of the search, a plain-text 429 with Retry-After past it. A path with a
  trailing slash is the same route (as Express routes it), not a redirect.
- Paging of browse lists: same rule (default 50, maximum 100); offsets above 2147483647 400.
- The `hostile` size is the demo data plus a `hostile` project (`hostile_data`): every kind of
  record in it carries text that attacks terminal UIs (markup, OSC 52/0, CSI, C1, BiDi, 2,000
  characters...), stored and served as sent, like Unleash. The tests run on it; `demo`, what
  `flagtui demo` opens, leaves it out.
- Demo data is generated around a fixed moment (2025-06-02, stable tests and screenshots);
  `python -m flagtui.sandbox` / `flagtui sandbox` generate a new database around the
  present (`create_database(..., now=None)`).
- Events: every write that changes something records the event real Unleash records; a
  write that changes nothing records none. Event `createdBy` is the token user's username.
  Exceptions, as real Unleash: a strategy update and an environment-variants write record
  their event even when nothing changed, and so does a reorder.
- Flag creation (`feature_create`): POST /api/admin/projects/:p/features answers 201 with
  real Unleash's short row and records feature-created (data: that row); the name is checked
  first (URL-friendly, 1..100: 400; taken, archived flags included: 409 NameExistsError),
  then the project (404). An unknown type is a 400 (real Unleash's request schema lists the
  types; the sandbox checks its own feature types). POST /api/admin/features/validate
  answers 200 with no body, or the same 400/409; any token may ask.
- Strategies (`strategies`, `strategy_rules`): real Unleash 8.2's routes, defaults and checks.
  400s: an unknown strategy type, bad constraints (operator, values, number/date/semver/regex
  values, legal values), bad variants (names, weights, fixed weights above 1000, no variable
  variant), limits (ExceedsLimitError); 404: an unknown flag or segment. A rollout is not
  range-checked and an unknown context field is accepted, as real Unleash does. Operators are
  not restricted per context field (real Unleash does not; the client offers them by field).
  A body both malformed and about an unknown flag is a 400 here (real Unleash: some checks
  come after its 404). Change-request protection of environments is not modelled.
- Environment variants (`env_variants`): writable only where the flag already has some, as
  on real Unleash 6.10-8.2 (403 InvalidOperationError otherwise).
- Strategy types (`catalog`): a fixed list, read-only. Segments (`segments`): written as real
  Unleash writes them. Context fields (`context_fields`): created, edited, deleted and where used
  as on real Unleash 8.2.0 (7.5.1 and 6.10.1 alike but where said there): its 400s named
  BadDataError with its sentence in `details`, a field in use refused on delete (409
  ConflictError); a database made before they could change gets the fixed ones on attach.
- Evaluation (`playground`, `playground_advanced`, `client_api`): POST /api/admin/playground,
  POST /api/admin/playground/advanced (real Unleash's combinations and limits: 15,000
  evaluations, 100 kB bodies) and GET /api/client/features, evaluated by yggdrasil-engine, the
  SDKs' own core. The client token
  (`*:production.<hex>`) reads the client API for production and is a 403 on the admin API;
  admin and viewer tokens read it for development.
- Tags and tag types (`tags`), a flag's dependency on a parent (`dependencies`, also served to
  SDKs by the client API) and a project environment's default strategy (`default_strategy`,
  which a flag switched on with no strategy then gets): real Unleash 8.2's routes, statuses,
  error names and events; where 6.10.1 and 7.5.1 answer otherwise, each module says so.
- Error bodies are `{id, name, message}` everywhere; real Unleash adds `details` and names
  its 400s BadDataError (the contract's name, ValidationError, is kept).
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flagtui.sandbox.app import create_app
    from flagtui.sandbox.auth import Tokens, read_tokens
    from flagtui.sandbox.create import create_database
    from flagtui.sandbox.server import SandboxServer

__all__ = ["SandboxServer", "Tokens", "create_app", "create_database", "read_tokens"]

_MODULE_OF = {
    "SandboxServer": "server",
    "Tokens": "auth",
    "create_app": "app",
    "create_database": "create",
    "read_tokens": "auth",
}


def __getattr__(name: str) -> Any:
    """The server's parts, imported when first named (PEP 562): `flagtui sandbox --help` reads
    options.py alone, without Starlette or the shapes' pydantic models."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
