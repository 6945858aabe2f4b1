"""The sandbox's own OpenAPI 3.1 document (GET /docs/openapi.json): what it really serves.

Derived: the paths and methods from the routes, the answers' schemas from the handlers'
return types (`shapes`, through pydantic), the path parameters from the paths, and the
statuses every route shares (401 without a token, 403 for writes and admin reads, 400,
413 and 415 for a body). Written here: what no type says: summaries, the other error
statuses, query parameters, request bodies, and the two routes outside the admin API.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Protocol, get_args, get_origin, get_type_hints

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode

from flagtui.contract import (
    EVENT_SEARCH_MAX,
    EVENT_TYPES,
    INT32_MAX,
    PAGE_DEFAULT,
    PAGE_MAX,
    PATCH_OPS,
)
from flagtui.sandbox import flag_objects, openapi_context, openapi_rollout
from flagtui.sandbox.shapes import LIFETIME_DAYS, Error
from flagtui.sandbox.ui_config import VERSION

Schema = dict[str, Any]
STRING: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
REF = "#/components/schemas/{model}"
# The contract's names for path parameters where the routes use shorter ones.
PARAM_NAMES = {"project": "projectId", "feature": "featureName"}
ERRORS = {
    400: "The request data does not match what is expected (ValidationError)",
    401: "Authorization information is missing or invalid (AuthenticationRequired)",
    403: "The token's user lacks the permission (NoAccessError)",
    404: "The resource does not exist (NotFoundError)",
    409: "The name is already taken (NameExistsError)",
    413: "The request body is larger than 1 MiB (PayloadTooLargeError)",
    415: "The content type is not application/json (ContentTypeerror)",
}


class ApiRouteLike(Protocol):
    """What the document needs of a route (`app.ApiRoute`)."""

    path: str
    method: str
    handler: Any
    write: bool
    body: bool
    admin: bool
    ok: int


def query_param(name: str, description: str, required: bool = False) -> Schema:
    return {
        "name": name,
        "in": "query",
        "required": required,
        "schema": STRING,
        "description": description,
    }


def _obj(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    return {"type": "object", "properties": properties, "required": required or []}


PAGING = [
    query_param(
        "limit", f"Page size: a non-negative integer; 0 or above {PAGE_MAX} means {PAGE_DEFAULT}"
    ),
    query_param("offset", f"Rows to skip: a non-negative integer up to {INT32_MAX}"),
]
LENIENT_PAGING = [
    query_param(
        "limit",
        f"Page size; anything but a number above 0 and up to {PAGE_MAX} means {PAGE_DEFAULT}",
    ),
    query_param("offset", "Rows to skip; anything but a positive number means 0"),
]
FILTER = "IS:value, IS_NOT:value, IS_ANY_OF:a,b or IS_NONE_OF:a,b"
INTS: Schema = {"type": "array", "items": INT}


@dataclass(frozen=True)
class Doc:
    summary: str
    errors: tuple[int, ...] = ()  # beyond those the route's kind implies
    params: list[Schema] = field(default_factory=list)
    body: Schema | None = None


PROJECT = "/api/admin/projects/{project}"
FEATURE = f"{PROJECT}/features/{{feature}}"
_ADDON_BODY = _obj(
    {
        "provider": STRING,
        "enabled": {"type": "boolean"},
        "description": STRING,
        "parameters": {"type": "object"},
        **{k: {"type": "array", "items": STRING} for k in ("events", "projects", "environments")},
    },
    ["provider", "enabled"],
)

DOCS: dict[tuple[str, str], Doc] = {
    ("GET", "/api/admin/ui-config"): Doc("Version and edition"),
    ("GET", "/api/admin/projects"): Doc("List projects"),
    ("GET", f"{PROJECT}/features"): Doc("The project's non-archived features", (404,)),
    ("GET", FEATURE): Doc("One feature", (404,)),
    ("GET", "/api/admin/features/{feature}/tags"): Doc(
        "A feature's tags, in whichever project (real Unleash's read)", (404,)
    ),
    ("PATCH", FEATURE): Doc(
        "Modify a feature flag",
        (404,),
        body={
            "type": "array",
            "items": _obj(
                {
                    "op": {"type": "string", "enum": list(PATCH_OPS)},
                    "path": STRING,
                    "from": STRING,
                    "value": {},
                },
                ["op", "path"],
            ),
        },
    ),
    ("DELETE", FEATURE): Doc(
        "Archive a feature (202, no body; records feature-archived, lifecycle stage archived;"
        " an archived feature is archived again)",
        (404,),
    ),
    ("POST", f"{FEATURE}/lifecycle/uncomplete"): Doc("Set feature uncompleted", (404,)),
    ("POST", f"{FEATURE}/environments/{{environment}}/on"): Doc(
        "Switch a feature on in an environment (adds the default strategy if none is active);"
        " 400 ArchivedFeatureError for an archived feature",
        (400, 404),
    ),
    ("POST", f"{FEATURE}/environments/{{environment}}/off"): Doc(
        "Switch a feature off in an environment; 400 ArchivedFeatureError for an archived feature",
        (400, 404),
    ),
    ("POST", f"{PROJECT}/revive"): Doc(
        "Revive archived features (unknown or live names are skipped)",
        (404,),
        body=_obj({"features": {"type": "array", "items": STRING}}, ["features"]),
    ),
    ("POST", f"{PROJECT}/archive"): Doc(
        "Archive features (202; unknown or archived names are skipped; feature-archived each)",
        body=_obj({"features": {"type": "array", "items": STRING}}, ["features"]),
    ),
    ("POST", f"{PROJECT}/stale"): Doc(
        "Mark features stale or not stale (202; unknown names are skipped)",
        body=_obj(
            {"features": {"type": "array", "items": STRING}, "stale": {"type": "boolean"}},
            ["features", "stale"],
        ),
    ),
    ("POST", f"{PROJECT}/bulk_features/environments/{{environment}}/on"): Doc(
        "Switch features on in an environment, all or none (the first refusal refuses all)",
        (404,),
        body=_obj({"features": {"type": "array", "items": STRING}}, ["features"]),
    ),
    ("POST", f"{PROJECT}/bulk_features/environments/{{environment}}/off"): Doc(
        "Switch features off in an environment, all or none (the first refusal refuses all)",
        (404,),
        body=_obj({"features": {"type": "array", "items": STRING}}, ["features"]),
    ),
    ("GET", "/api/admin/search/features"): Doc(
        "Search features",
        (400,),
        [
            query_param("query", "Case-insensitive text in name, description or tags"),
            query_param("project", FILTER),
            query_param("type", FILTER),
            query_param("state", f"{FILTER} over active, stale, potentially-stale, archived"),
            query_param("lifecycle", f"{FILTER} over lifecycle stages (archived included)"),
            query_param("archived", "IS:true: archived features only (deprecated)"),
            query_param(
                "sortBy",
                "name, type, project, createdAt, lastSeenAt, stale, archivedAt or lifecycle",
            ),
            query_param("sortOrder", "asc or desc"),
            *PAGING,
        ],
    ),
    ("GET", "/api/admin/environments/project/{project}"): Doc(
        "Environments, with visible marking those linked to the project", (404,)
    ),
    ("DELETE", f"{PROJECT}/environments/{{environment}}"): Doc(
        "Remove an environment from a project", (400,)
    ),
    ("POST", f"{PROJECT}/environments"): Doc(
        "Link an environment to a project (its features get it, switched off)",
        (404, 409),
        body=_obj({"environment": STRING}, ["environment"]),
    ),
    ("GET", f"{PROJECT}/access"): Doc("Project access", (404,)),
    ("POST", f"{PROJECT}/access"): Doc(
        "Configure project access",
        (404,),
        body=_obj({"roles": INTS, "groups": INTS, "users": INTS}, ["roles", "groups", "users"]),
    ),
    ("GET", "/api/admin/feature-types"): Doc("Feature types"),
    ("PUT", "/api/admin/feature-types/{id}/lifetime"): Doc(
        "Update feature type lifetime",
        (404,),
        body=_obj({"lifetimeDays": LIFETIME_DAYS}, ["lifetimeDays"]),
    ),
    ("GET", "/api/admin/user-admin"): Doc("Users (ADMIN permission)"),
    ("GET", "/api/admin/user-admin/search"): Doc(
        "Search users", (400,), [query_param("q", "At least 2 characters", required=True)]
    ),
    ("GET", "/api/admin/roles"): Doc("Roles"),
    ("GET", "/api/admin/groups"): Doc("Groups"),
    ("GET", f"{PROJECT}/change-requests"): Doc(
        "Change requests of a project, newest first", (404,)
    ),
    ("GET", f"{PROJECT}/change-requests/{{id}}"): Doc("One change request", (404,)),
    ("DELETE", f"{PROJECT}/change-requests/{{id}}"): Doc("Delete a change request", (404,)),
    ("GET", "/api/admin/addons"): Doc("Integrations"),
    ("PUT", "/api/admin/addons/{id}"): Doc(
        "Update an integration (masked secrets keep their stored value)",
        (400, 404),
        body=_ADDON_BODY,
    ),
    ("POST", "/api/admin/addons"): Doc("Create an integration", (400,), body=_ADDON_BODY),
    ("DELETE", "/api/admin/addons/{id}"): Doc(
        "Delete an integration and its delivery history", (404,)
    ),
    ("GET", "/api/admin/addons/{id}/events"): Doc(
        "Integration events of an integration, newest first (ADMIN permission)",
        (404,),
        LENIENT_PAGING,
    ),
    ("POST", "/api/admin/events/search"): Doc(
        "Search events (deprecated)",
        body=_obj(
            {
                "type": {"type": "string", "enum": sorted(EVENT_TYPES)},
                "project": STRING,
                "feature": STRING,
                "query": STRING,
                "limit": {"type": "integer", "minimum": 1, "maximum": EVENT_SEARCH_MAX},
                "offset": {"type": "integer", "minimum": 0},
            }
        ),
    ),
    ("GET", "/api/admin/search/events"): Doc(
        "Search events",
        (400,),
        [
            query_param("query", "Free text"),
            *(query_param(name, FILTER) for name in ("feature", "project", "type")),
            *(query_param(name, FILTER) for name in ("createdBy", "environment")),
            query_param("from", "IS:yyyy-MM-dd"),
            query_param("to", "IS:yyyy-MM-dd"),
            *PAGING,
        ],
    ),
}


DOCS.update(openapi_rollout.docs(Doc))
DOCS.update(flag_objects.docs(Doc))
DOCS.update(openapi_context.docs(Doc))
DOCS.update(
    {
        ("GET", "/api/admin/api-tokens"): Doc("API tokens, their secrets in full (ADMIN)"),
        ("POST", "/api/admin/api-tokens"): Doc(
            "Create an API token (201 with its secret; records api-token-created)",
            (400,),
            body=_obj(
                {
                    "tokenName": STRING,
                    "type": {"type": "string", "pattern": "^(client|backend|frontend)$"},
                    "environment": STRING,
                    "projects": {"type": "array", "items": STRING},
                    "expiresAt": {"type": "string", "format": "date-time"},
                },
                ["tokenName", "type"],
            ),
        ),
        ("POST", "/api/admin/user-admin"): Doc(
            "Create a user (201 with an invite link; records user-created)",
            (400,),
            body=_obj(
                {k: STRING for k in ("name", "email", "username", "password")}
                | {"rootRole": INT, "sendEmail": {"type": "boolean"}},
                ["rootRole"],
            ),
        ),
        ("PUT", "/api/admin/user-admin/{id}"): Doc(
            "Change a user: root role, name, e-mail (records user-updated)",
            (400, 404),
            body=_obj({"rootRole": INT, "name": STRING, "email": STRING}),
        ),
        ("DELETE", "/api/admin/api-tokens/{token}"): Doc(
            "Delete an API token (200 whether or not it existed; records api-token-deleted)"
        ),
    }
)


class _NoTitles(GenerateJsonSchema):
    """pydantic titles every property after its name: noise in a document."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def _answer_type(handler: Any) -> Any:
    """The shape a handler answers: its return type (the shape an `Annotated` RawJSON names)."""
    answer = get_type_hints(handler, include_extras=True)["return"]
    if get_origin(answer) is Annotated:
        answer = get_args(answer)[1]
    return None if answer is type(None) else answer


def _json(schema: Schema) -> Schema:
    return {"application/json": {"schema": schema}}


def _operation(route: ApiRouteLike, ok: Schema | None) -> Schema:
    doc = DOCS[(route.method, route.path)]
    codes = {401, *doc.errors}
    if route.write or route.admin:
        codes.add(403)
    if route.body:
        codes.update((400, 413, 415))
    success = {"description": "OK", **({"content": _json(ok)} if ok else {})}
    responses: Schema = {str(route.ok): success}
    for code in sorted(codes):
        error = {"$ref": REF.format(model="Error")}
        responses[str(code)] = {"description": ERRORS[code], "content": _json(error)}
    names = re.findall(r"{(\w+)}", route.path)
    path_params = [
        {"name": PARAM_NAMES.get(n, n), "in": "path", "required": True, "schema": STRING}
        for n in names
    ]
    operation: Schema = {
        "summary": doc.summary,
        "parameters": [*path_params, *doc.params],
        "responses": responses,
    }
    if doc.body is not None:
        operation["requestBody"] = {"required": True, "content": _json(doc.body)}
    return operation


def _unsecured(summary: str, ok: Schema) -> Schema:
    return {
        "get": {
            "summary": summary,
            "parameters": [],
            "responses": {"200": {"description": "OK", "content": _json(ok)}},
            "security": [],
        }
    }


def build_document(routes: Iterable[ApiRouteLike]) -> Schema:
    answers = [(r, _answer_type(r.handler)) for r in routes]
    inputs: list[tuple[int, JsonSchemaMode, TypeAdapter[Any]]] = [
        (i, "serialization", TypeAdapter(a)) for i, (_, a) in enumerate(answers) if a
    ]
    inputs.append((-1, "serialization", TypeAdapter(Error)))
    schemas, definitions = TypeAdapter.json_schemas(
        inputs, ref_template=REF, schema_generator=_NoTitles
    )
    paths: dict[str, Schema] = {
        "/health": _unsecured("Health", _obj({"health": STRING}, ["health"])),
        "/docs/openapi.json": _unsecured("This document", {"type": "object"}),
    }
    for i, (route, answer) in enumerate(answers):
        ok = schemas[(i, "serialization")] if answer else None
        path = re.sub(r"{(\w+)}", lambda m: "{" + PARAM_NAMES.get(m[1], m[1]) + "}", route.path)
        paths.setdefault(path, {})[route.method.lower()] = _operation(route, ok)
    return {
        "openapi": "3.1.0",
        "info": {"title": "flagtui sandbox (Unleash admin API subset)", "version": VERSION},
        "servers": [{"url": "/"}],
        "security": [{"apiKey": []}],
        "components": {
            "securitySchemes": {
                "apiKey": {"type": "apiKey", "in": "header", "name": "Authorization"}
            },
            "schemas": definitions.get("$defs", {}),
        },
        "paths": paths,
    }
