"""The ASGI app: routes, authentication, body handling, and errors as `{id, name, message}`.

Each request is checked in real Unleash's order: token (401), content type of a write body
(415), permission (403), body size (413 above 1 MiB, error name PayloadTooLargeError), body
syntax (400). Handlers are plain functions called on the event loop: each is a few short
SQLite statements, cheaper run in place than handed to a worker thread (measured: about 20%
more requests a second). A handler may answer `RawJSON`, JSON text sent as it is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from flagtui.sandbox import (
    access,
    addon_config,
    api_tokens,
    archive,
    auth,
    bulk_writes,
    catalog,
    change_requests,
    client_api,
    context_fields,
    env_variants,
    events,
    feature_create,
    feature_environments,
    feature_types,
    feature_writes,
    features,
    flag_batch,
    flag_objects,
    flag_ops,
    integrations,
    playground,
    playground_advanced,
    projects,
    segments,
    strategies,
    users,
)
from flagtui.sandbox.auth import Caller, authenticate, authenticate_admin, load_callers
from flagtui.sandbox.db import Database, RawJSON, dumps
from flagtui.sandbox.errors import ApiError, error_response, path_not_available
from flagtui.sandbox.inputs import Call, is_json, parse_json
from flagtui.sandbox.openapi import build_document
from flagtui.sandbox.rate_limit import SearchLimit, configured_limit
from flagtui.sandbox.ui_config import ui_config

MAX_BODY = 1024 * 1024
log = logging.getLogger(__name__)
Handler = Callable[[Call], Any]


@dataclass(frozen=True)
class Sandbox:
    db: Database
    callers: dict[str, Caller]
    searches: SearchLimit


class FastJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return dumps(content).encode("utf-8")


async def _read_body(request: Request, most: int) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > most:
        raise ApiError(413, f"The request body is larger than {most} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise ApiError(413, f"The request body is larger than {most} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def endpoint(
    handler: Handler,
    *,
    write: bool = False,
    body: bool = False,
    admin: bool = False,
    ok: int = 200,
    client: bool = False,
    limited: bool = False,
    max_body: int = MAX_BODY,
) -> Callable[[Request], Any]:
    """`client`: a route of the client API, which client tokens may read too; `limited`: one
    that real Unleash rate-limits per client IP (`rate_limit`); `max_body`: its body's limit."""
    who = authenticate if client else authenticate_admin

    async def run(request: Request) -> Response:
        limit_headers: dict[str, str] = {}  # on every answer of a limited route, as there
        response = await answer(request, limit_headers)
        response.headers.update(limit_headers)
        return response

    async def answer(request: Request, limit_headers: dict[str, str]) -> Response:
        sandbox: Sandbox = request.app.state.sandbox
        try:
            caller = who(request.headers.get("authorization"), sandbox.callers)
            if limited:
                taken, refused = sandbox.searches.take(
                    request.client.host if request.client else ""
                )
                limit_headers.update(taken)
                if refused is not None:
                    return refused
            if body and not is_json(request.headers.get("content-type")):
                raise ApiError(
                    415,
                    "We do not accept the content-type "
                    f"{request.headers.get('content-type', '(none)')}; use application/json",
                )
            if write:
                caller.require_write()
            if admin:
                caller.require_admin()
            payload = parse_json(await _read_body(request, max_body)) if body else None
            call = Call(
                sandbox.db,
                caller,
                dict(request.path_params),
                dict(request.query_params),
                payload,
                request.headers,
            )
            result = handler(call)
        except ApiError as error:
            return error.response()
        if result is None:
            return Response(status_code=ok)
        if isinstance(result, Response):
            return result
        if isinstance(result, RawJSON):
            return Response(result.encode("utf-8"), media_type="application/json")
        return FastJSONResponse(result, status_code=ok)

    return run


async def health(request: Request) -> Response:
    return JSONResponse({"health": "GOOD"})


class ApiRoute(Route):
    """A route of the admin API: its handler and its kind, which the OpenAPI document reads."""

    def __init__(
        self,
        path: str,
        method: str,
        handler: Handler,
        *,
        write: bool = False,
        body: bool = False,
        admin: bool = False,
        ok: int = 200,
        client: bool = False,
        limited: bool = False,
        max_body: int = MAX_BODY,
    ) -> None:
        """`ok`: the status of a success (real Unleash's archive answers 202, creation 201);
        `client`, `limited`, `max_body`: see `endpoint`."""
        run = endpoint(
            handler,
            write=write,
            body=body,
            admin=admin,
            ok=ok,
            client=client,
            limited=limited,
            max_body=max_body,
        )
        super().__init__(path, run, methods=[method])
        self.method, self.handler = method, handler
        self.write, self.body, self.admin, self.ok = write, body, admin, ok


@cache
def openapi_document() -> dict[str, Any]:
    return build_document(r for r in routes() if isinstance(r, ApiRoute))


async def openapi(request: Request) -> Response:
    return JSONResponse(openapi_document())


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code in (404, 405):
        if request.url.path.startswith("/api/"):  # real Unleash asks for a token first
            try:
                authenticate(
                    request.headers.get("authorization"), request.app.state.sandbox.callers
                )
            except ApiError as error:
                return error.response()
        return path_not_available(request.scope.get(ASKED_PATH, request.url.path))
    return error_response(exc.status_code, str(exc.detail))


ASKED_PATH = "flagtui.asked_path"


class TrailingSlash:
    """A path with a trailing slash is served as the path without it, as Express (Unleash)
    routes, not redirected (Starlette's 307); a 404 still names the path as asked."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and len(path) > 1 and path.endswith("/"):
            scope = {**scope, "path": path.rstrip("/") or "/", ASKED_PATH: path}
        await self.app(scope, receive, send)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error", exc_info=exc)
    return error_response(500, "The sandbox hit an unexpected error")


def routes() -> list[Route]:
    project = "/api/admin/projects/{project}"
    feature = f"{project}/features/{{feature}}"
    env = f"{feature}/environments/{{environment}}"
    bulk_env = f"{project}/bulk_features/environments/{{environment}}"
    return [
        Route("/health", health, methods=["GET"]),
        Route("/docs/openapi.json", openapi, methods=["GET"]),
        ApiRoute("/api/admin/ui-config", "GET", ui_config),
        ApiRoute("/api/admin/projects", "GET", projects.list_projects),
        ApiRoute(f"{project}/features", "GET", features.project_features),
        ApiRoute(feature, "GET", features.get_feature),
        ApiRoute(feature, "PATCH", feature_writes.patch_feature, write=True, body=True),
        ApiRoute(feature, "DELETE", archive.archive_feature, write=True, ok=202),
        ApiRoute(f"{feature}/lifecycle/uncomplete", "POST", feature_writes.uncomplete, write=True),
        ApiRoute(f"{env}/on", "POST", feature_environments.switch_on, write=True),
        ApiRoute(f"{env}/off", "POST", feature_environments.switch_off, write=True),
        ApiRoute("/api/admin/search/features", "GET", features.search_features, limited=True),
        ApiRoute("/api/admin/features/{feature}/tags", "GET", features.feature_tags),
        ApiRoute(f"{project}/revive", "POST", archive.revive, write=True, body=True),
        ApiRoute(
            f"{project}/archive", "POST", bulk_writes.archive_many, write=True, body=True, ok=202
        ),
        ApiRoute(f"{project}/stale", "POST", bulk_writes.mark_stale, write=True, body=True, ok=202),
        ApiRoute(f"{bulk_env}/on", "POST", bulk_writes.switch_many_on, write=True, body=True),
        ApiRoute(f"{bulk_env}/off", "POST", bulk_writes.switch_many_off, write=True, body=True),
        ApiRoute("/api/admin/environments/project/{project}", "GET", projects.project_environments),
        ApiRoute(
            f"{project}/environments/{{environment}}",
            "DELETE",
            projects.remove_environment,
            write=True,
        ),
        ApiRoute(
            f"{project}/environments", "POST", projects.add_environment, write=True, body=True
        ),
        ApiRoute(f"{project}/access", "GET", access.get_access),
        ApiRoute(f"{project}/access", "POST", access.add_access, write=True, body=True),
        ApiRoute("/api/admin/feature-types", "GET", feature_types.list_types),
        ApiRoute(
            "/api/admin/feature-types/{id}/lifetime",
            "PUT",
            feature_types.put_lifetime,
            write=True,
            body=True,
        ),
        ApiRoute("/api/admin/user-admin", "GET", users.list_users, admin=True),
        ApiRoute("/api/admin/user-admin/search", "GET", users.search_users),
        ApiRoute("/api/admin/roles", "GET", users.list_roles),
        ApiRoute("/api/admin/groups", "GET", users.list_groups),
        ApiRoute(f"{project}/change-requests", "GET", change_requests.list_for_project),
        ApiRoute(f"{project}/change-requests/{{id}}", "GET", change_requests.get_one),
        ApiRoute(f"{project}/change-requests/{{id}}", "DELETE", change_requests.delete, write=True),
        ApiRoute("/api/admin/addons", "GET", integrations.list_addons),
        ApiRoute(
            "/api/admin/addons",
            "POST",
            addon_config.create_addon,
            write=True,
            body=True,
            admin=True,
            ok=201,  # as real Unleash 6.10.1, 7.5.1 and 8.2.0 answer it
        ),
        ApiRoute(
            "/api/admin/addons/{id}", "DELETE", addon_config.delete_addon, write=True, admin=True
        ),
        ApiRoute(
            "/api/admin/addons/{id}",
            "PUT",
            addon_config.update_addon,
            write=True,
            body=True,
            admin=True,
        ),
        ApiRoute("/api/admin/addons/{id}/events", "GET", integrations.addon_events, admin=True),
        ApiRoute("/api/admin/events/search", "POST", events.search_post, body=True),
        ApiRoute("/api/admin/search/events", "GET", events.search_get),
        *rollout_routes(project, feature, env),
        *flag_objects.routes(ApiRoute),
        *(ApiRoute(p, m, run, **kind) for p, m, run, kind in (*api_tokens.ROUTES, *users.ROUTES)),
    ]


def rollout_routes(project: str, feature: str, env: str) -> list[Route]:
    """Creating flags, their strategies and variants, and evaluating them (issue 25)."""
    strategy = f"{env}/strategies/{{id}}"
    return [
        ApiRoute(
            f"{project}/features",
            "POST",
            feature_create.create_feature,
            write=True,
            body=True,
            ok=201,
        ),
        ApiRoute("/api/admin/features/validate", "POST", feature_create.validate_name, body=True),
        ApiRoute(f"{feature}/clone", "POST", flag_ops.clone, write=True, body=True, ok=201),
        ApiRoute("/api/admin/archive/{feature}", "DELETE", flag_ops.delete_one, write=True),
        ApiRoute(f"{project}/delete", "POST", flag_ops.delete_many, write=True, body=True),
        ApiRoute(f"{feature}/lifecycle/complete", "POST", flag_ops.complete, write=True, body=True),
        ApiRoute("/api/admin/strategies", "GET", catalog.list_strategies),
        ApiRoute("/api/admin/context", "GET", context_fields.list_fields),
        ApiRoute(
            "/api/admin/context", "POST", context_fields.create, write=True, body=True, ok=201
        ),
        ApiRoute("/api/admin/context/{name}", "GET", context_fields.get_one),
        ApiRoute("/api/admin/context/{name}", "PUT", context_fields.update, write=True, body=True),
        ApiRoute("/api/admin/context/{name}", "DELETE", context_fields.delete, write=True),
        ApiRoute("/api/admin/context/{name}/strategies", "GET", context_fields.strategies),
        ApiRoute("/api/admin/segments", "GET", catalog.list_segments),
        ApiRoute("/api/admin/segments", "POST", segments.create, write=True, body=True, ok=201),
        ApiRoute("/api/admin/segments/{id}", "GET", segments.get_one),
        ApiRoute("/api/admin/segments/{id}", "PUT", segments.update, write=True, body=True, ok=204),
        ApiRoute("/api/admin/segments/{id}", "DELETE", segments.delete, write=True, ok=204),
        ApiRoute("/api/admin/segments/{id}/strategies", "GET", segments.used_by),
        ApiRoute(f"{env}/strategies", "GET", strategies.list_for_environment),
        ApiRoute(f"{env}/strategies", "POST", strategies.add, write=True, body=True),
        ApiRoute(
            f"{env}/strategies/set-sort-order",
            "POST",
            strategies.set_sort_order,
            write=True,
            body=True,
        ),
        ApiRoute(strategy, "GET", strategies.get_one),
        ApiRoute(strategy, "PUT", strategies.update, write=True, body=True),
        ApiRoute(strategy, "PATCH", strategies.patch, write=True, body=True),
        ApiRoute(strategy, "DELETE", strategies.delete, write=True),
        ApiRoute(f"{env}/variants", "GET", env_variants.get_variants),
        ApiRoute(f"{env}/variants", "PUT", env_variants.put_variants, write=True, body=True),
        ApiRoute(f"{env}/variants", "PATCH", env_variants.patch_variants, write=True, body=True),
        ApiRoute("/api/admin/playground", "POST", playground.evaluate, body=True),
        ApiRoute("/api/admin/features-batch/export", "POST", flag_batch.export, body=True),
        ApiRoute(
            "/api/admin/playground/advanced",
            "POST",
            playground_advanced.evaluate,
            body=True,
            max_body=playground_advanced.MAX_BODY,
        ),
        ApiRoute("/api/client/features", "GET", client_api.features_for_sdk, client=True),
    ]


def attach_database(
    app: Starlette,
    db_path: Path | str,
    *,
    keep_all_deliveries: bool = False,
    search_limit: int | None = None,
) -> None:
    """Serve this database file from the next request on, every client's search window new."""
    db = Database(db_path, keep_all_deliveries=keep_all_deliveries)
    db.upgrade(catalog.seed_context_fields)
    with db.read() as conn:
        callers = load_callers(conn)
    db.tokens_changed = auth.reloading(db, callers)
    searches = SearchLimit(configured_limit(search_limit))
    app.state.sandbox = Sandbox(db=db, callers=callers, searches=searches)


def create_app(
    db_path: Path | str, *, keep_all_deliveries: bool = False, search_limit: int | None = None
) -> Starlette:
    """The sandbox app over an existing database (see `create_database`). Like real Unleash it
    forgets old deliveries (`integrations.forget_deliveries`) unless `keep_all_deliveries`, and
    allows `search_limit` feature searches a minute per client IP (`rate_limit`: by default
    what SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE says, else 15)."""
    app = Starlette(
        routes=routes(),
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
        middleware=[Middleware(TrailingSlash)],
    )
    attach_database(
        app, db_path, keep_all_deliveries=keep_all_deliveries, search_limit=search_limit
    )
    return app
