"""The sandbox's own OpenAPI 3.0 document (GET /docs/openapi.json): what it really serves."""

from __future__ import annotations

from functools import cache
from typing import Any

from flagtui.contract import (
    CHANGE_REQUEST_STATES,
    EVENT_SEARCH_MAX,
    EVENT_TYPES,
    INT32_MAX,
    LIFECYCLE_STAGES,
    MAX_LIFETIME_DAYS,
    PAGE_DEFAULT,
    PAGE_MAX,
    PATCH_OPS,
)
from flagtui.sandbox.ui_config import VERSION

Schema = dict[str, Any]

STRING: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
DATE: Schema = {"type": "string", "format": "date-time"}
FREE: Schema = {"type": "object", "additionalProperties": True}


def nullable(schema: Schema) -> Schema:
    return {**schema, "nullable": True}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def obj(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    schema: Schema = {"type": "object", "properties": properties}
    schema["required"] = list(properties) if required is None else required
    return schema


USER_BRIEF = obj({"id": INT, "name": STRING, "imageUrl": STRING})
ACTOR = obj({"id": INT, "username": STRING, "imageUrl": STRING})
LIFETIME_DAYS: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_LIFETIME_DAYS}
TAG = obj({"value": STRING, "type": STRING})
LIFECYCLE = obj(
    {
        "stage": {"type": "string", "enum": list(LIFECYCLE_STAGES)},
        "enteredStageAt": DATE,
    }
)

SCHEMAS: dict[str, Schema] = {
    "Error": obj({"id": STRING, "name": STRING, "message": STRING}),
    "Constraint": obj(
        {
            "contextName": STRING,
            "operator": STRING,
            "caseInsensitive": BOOL,
            "inverted": BOOL,
            "values": array(STRING),
            "value": STRING,
        }
    ),
    "Variant": obj(
        {
            "name": STRING,
            "weight": INT,
            "weightType": STRING,
            "stickiness": STRING,
            "payload": obj({"type": STRING, "value": STRING}),
            "overrides": array(obj({"contextName": STRING, "values": array(STRING)})),
        }
    ),
    "Strategy": obj(
        {
            "id": STRING,
            "name": STRING,
            "title": STRING,
            "disabled": BOOL,
            "featureName": STRING,
            "sortOrder": INT,
            "segments": array(INT),
            "constraints": array(ref("Constraint")),
            "variants": array(ref("Variant")),
            "parameters": {"type": "object", "additionalProperties": STRING},
        }
    ),
    "FeatureEnvironment": obj(
        {
            "name": STRING,
            "featureName": STRING,
            "environment": STRING,
            "type": STRING,
            "enabled": BOOL,
            "sortOrder": INT,
            "variantCount": INT,
            "strategies": array(ref("Strategy")),
            "variants": array(ref("Variant")),
            "lastSeenAt": nullable(DATE),
            "hasStrategies": BOOL,
            "hasEnabledStrategies": BOOL,
        }
    ),
    "Feature": obj(
        {
            "name": STRING,
            "type": STRING,
            "description": nullable(STRING),
            "archived": BOOL,
            "project": STRING,
            "enabled": BOOL,
            "stale": BOOL,
            "potentiallyStale": BOOL,
            "favorite": BOOL,
            "impressionData": BOOL,
            "createdAt": DATE,
            "createdBy": USER_BRIEF,
            "archivedAt": nullable(DATE),
            "lastSeenAt": nullable(DATE),
            "environments": array(ref("FeatureEnvironment")),
            "variants": array(ref("Variant")),
            "strategies": array(ref("Strategy")),
            "tags": array(TAG),
            "children": array(STRING),
            "lifecycle": LIFECYCLE,
            "dependencies": array(
                obj({"feature": STRING, "enabled": BOOL, "variants": array(STRING)})
            ),
            "collaborators": obj({"users": array(USER_BRIEF)}),
        }
    ),
    "FeatureSearchItem": obj(
        {
            "name": STRING,
            "description": nullable(STRING),
            "type": STRING,
            "project": STRING,
            "stale": BOOL,
            "potentiallyStale": BOOL,
            "favorite": BOOL,
            "impressionData": BOOL,
            "createdAt": DATE,
            "archivedAt": nullable(DATE),
            "lastSeenAt": nullable(DATE),
            "environments": array(
                obj(
                    {
                        "name": STRING,
                        "enabled": BOOL,
                        "type": STRING,
                        "sortOrder": INT,
                        "variantCount": INT,
                        "lastSeenAt": nullable(DATE),
                        "hasStrategies": BOOL,
                        "hasEnabledStrategies": BOOL,
                    }
                )
            ),
            "tags": array(TAG),
            "lifecycle": LIFECYCLE,
            "createdBy": USER_BRIEF,
            "dependencyType": nullable({"type": "string", "enum": ["parent", "child"]}),
            "segments": array(STRING),
        }
    ),
    "FeatureType": obj(
        {
            "id": STRING,
            "name": STRING,
            "description": STRING,
            "lifetimeDays": nullable(LIFETIME_DAYS),
        }
    ),
    "Event": obj(
        {
            "id": INT,
            "createdAt": DATE,
            "type": {"type": "string", "enum": sorted(EVENT_TYPES)},
            "createdBy": STRING,
            "createdByUserId": nullable(INT),
            "environment": nullable(STRING),
            "project": nullable(STRING),
            "featureName": nullable(STRING),
            "data": nullable(FREE),
            "preData": nullable(FREE),
            "tags": array(TAG),
        }
    ),
    "IntegrationEvent": obj(
        {
            "id": STRING,
            "integrationId": INT,
            "createdAt": DATE,
            "state": {"type": "string", "enum": ["success", "failed", "successWithErrors"]},
            "stateDetails": STRING,
            "event": ref("Event"),
            "details": {
                "type": "object",
                "properties": {"message": STRING, "channels": array(STRING)},
                "required": ["message"],
            },
        }
    ),
    "User": obj(
        {
            "id": INT,
            "isAPI": BOOL,
            "name": nullable(STRING),
            "email": STRING,
            "username": nullable(STRING),
            "imageUrl": STRING,
            "inviteLink": STRING,
            "loginAttempts": INT,
            "emailSent": BOOL,
            "rootRole": INT,
            "seenAt": nullable(DATE),
            "createdAt": DATE,
            "accountType": STRING,
            "permissions": array(STRING),
            "scimId": nullable(STRING),
        }
    ),
    "Role": obj(
        {
            "id": INT,
            "type": {"type": "string", "enum": ["root", "root-custom", "project", "custom"]},
            "name": STRING,
            "description": STRING,
            "project": nullable(STRING),
        }
    ),
    "Project": obj(
        {
            "id": STRING,
            "name": STRING,
            "description": STRING,
            "featureCount": INT,
            "memberCount": INT,
            "createdAt": DATE,
            "health": INT,
            "mode": STRING,
            "favorite": BOOL,
        }
    ),
    "ProjectEnvironment": obj(
        {
            "name": STRING,
            "type": STRING,
            "enabled": BOOL,
            "sortOrder": INT,
            "protected": BOOL,
            "visible": BOOL,
        }
    ),
    "Addon": obj(
        {
            "id": INT,
            "provider": STRING,
            "description": STRING,
            "enabled": BOOL,
            "events": array(STRING),
            "projects": array(STRING),
            "environments": array(STRING),
            "parameters": {"type": "object", "additionalProperties": STRING},
            "createdAt": DATE,
        }
    ),
    "AddonProvider": obj(
        {
            "name": STRING,
            "displayName": STRING,
            "description": STRING,
            "parameters": array(
                obj(
                    {
                        "name": STRING,
                        "displayName": STRING,
                        "type": STRING,
                        "required": BOOL,
                        "sensitive": BOOL,
                    }
                )
            ),
            "events": array(STRING),
        }
    ),
    "Group": obj(
        {
            "id": INT,
            "name": STRING,
            "description": STRING,
            "users": array(
                obj({"user": obj({"id": INT, "name": nullable(STRING), "email": STRING})})
            ),
            "userCount": INT,
            "rootRole": nullable(INT),
            "createdAt": DATE,
        }
    ),
    "ChangeRequest": obj(
        {
            "id": INT,
            "title": STRING,
            "environment": STRING,
            "state": {"type": "string", "enum": list(CHANGE_REQUEST_STATES)},
            "project": STRING,
            "createdAt": DATE,
            "createdBy": ACTOR,
            "minApprovals": INT,
            "features": array(
                obj(
                    {
                        "name": STRING,
                        "changes": array(
                            obj(
                                {
                                    "id": INT,
                                    "action": STRING,
                                    "payload": FREE,
                                    "createdAt": DATE,
                                    "createdBy": ACTOR,
                                }
                            )
                        ),
                    }
                )
            ),
            "approvals": array(obj({"createdBy": ACTOR, "createdAt": DATE})),
            "rejections": array(obj({"createdBy": ACTOR, "createdAt": DATE})),
            "comments": array(
                obj({"id": INT, "text": STRING, "createdAt": DATE, "createdBy": ACTOR})
            ),
            "schedule": nullable(obj({"scheduledAt": DATE, "status": STRING})),
        }
    ),
}

ERRORS = {
    400: "The request data does not match what is expected (ValidationError)",
    401: "Authorization information is missing or invalid (AuthenticationRequired)",
    403: "The token's user lacks the permission (NoAccessError)",
    404: "The resource does not exist (NotFoundError)",
    413: "The request body is larger than 1 MiB (PayloadTooLargeError)",
    415: "The content type is not application/json (ContentTypeerror)",
}


def _json(schema: Schema) -> Schema:
    return {"application/json": {"schema": schema}}


def path_param(name: str) -> Schema:
    return {"name": name, "in": "path", "required": True, "schema": STRING}


def query_param(name: str, description: str) -> Schema:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": STRING,
        "description": description,
    }


PAGING = [
    query_param(
        "limit", f"Page size: a non-negative integer; 0 or above {PAGE_MAX} means {PAGE_DEFAULT}"
    ),
    query_param("offset", f"Rows to skip: a non-negative integer up to {INT32_MAX}"),
]


def op(
    summary: str,
    ok: Schema | None,
    errors: list[int],
    *,
    params: list[Schema] | None = None,
    body: Schema | None = None,
    secured: bool = True,
) -> Schema:
    codes = sorted({*errors, *([413, 415, 400] if body else [])})
    responses: dict[str, Any] = {
        "200": {"description": "OK", **({"content": _json(ok)} if ok is not None else {})}
    }
    for code in codes if secured else []:
        responses[str(code)] = {"description": ERRORS[code], "content": _json(ref("Error"))}
    operation: Schema = {"summary": summary, "parameters": params or [], "responses": responses}
    if body is not None:
        operation["requestBody"] = {"required": True, "content": _json(body)}
    if not secured:
        operation["security"] = []
    return operation


P = [path_param("projectId")]
PF = [*P, path_param("featureName")]
READ = [401]
WRITE = [401, 403]
PATCH_OP = obj(
    {
        "op": {"type": "string", "enum": list(PATCH_OPS)},
        "path": STRING,
        "from": STRING,
        "value": {},
    },
    ["op", "path"],
)


def _paths() -> dict[str, Any]:
    project = "/api/admin/projects/{projectId}"
    feature = f"{project}/features/{{featureName}}"
    filt = "IS:value, IS_NOT:value, IS_ANY_OF:a,b or IS_NONE_OF:a,b"
    return {
        "/health": {"get": op("Health", obj({"health": STRING}), [], secured=False)},
        "/docs/openapi.json": {"get": op("This document", FREE, [], secured=False)},
        "/api/admin/ui-config": {
            "get": op(
                "Version and edition",
                obj(
                    {
                        "name": STRING,
                        "version": STRING,
                        "environment": STRING,
                        "sandbox": BOOL,
                        "versionInfo": obj(
                            {
                                "current": obj({"oss": STRING, "enterprise": STRING}),
                                "latest": FREE,
                                "isLatest": BOOL,
                            }
                        ),
                    },
                ),
                READ,
            )
        },
        "/api/admin/projects": {
            "get": op(
                "List projects", obj({"version": INT, "projects": array(ref("Project"))}), READ
            )
        },
        f"{project}/features": {
            "get": op(
                "The project's non-archived features",
                obj({"version": INT, "features": array(ref("FeatureSearchItem"))}),
                [401, 404],
                params=P,
            )
        },
        feature: {
            "get": op("One feature", ref("Feature"), [401, 404], params=PF),
            "patch": op(
                "Modify a feature flag",
                ref("Feature"),
                [401, 403, 404],
                params=PF,
                body=array(PATCH_OP),
            ),
        },
        f"{feature}/lifecycle/uncomplete": {
            "post": op("Set feature uncompleted", None, [401, 403, 404], params=PF)
        },
        f"{project}/revive": {
            "post": op(
                "Revive archived features (unknown or live names are skipped)",
                None,
                [400, 401, 403, 404],
                params=P,
                body=obj({"features": array(STRING)}, ["features"]),
            )
        },
        "/api/admin/search/features": {
            "get": op(
                "Search features",
                obj({"features": array(ref("FeatureSearchItem")), "total": INT}),
                [400, 401],
                params=[
                    query_param("query", "Case-insensitive text in name, description or tags"),
                    query_param("project", filt),
                    query_param("type", filt),
                    query_param("state", f"{filt} over active, stale, potentially-stale, archived"),
                    query_param("lifecycle", f"{filt} over lifecycle stages (archived included)"),
                    query_param("archived", "IS:true: archived features only (deprecated)"),
                    query_param(
                        "sortBy",
                        "name, type, project, createdAt, lastSeenAt, stale,"
                        " archivedAt or lifecycle",
                    ),
                    query_param("sortOrder", "asc or desc"),
                    *PAGING,
                ],
            )
        },
        "/api/admin/environments/project/{projectId}": {
            "get": op(
                "Environments, with visible marking those linked to the project",
                obj({"version": INT, "environments": array(ref("ProjectEnvironment"))}),
                [401, 404],
                params=P,
            )
        },
        f"{project}/environments/{{environment}}": {
            "delete": op(
                "Remove an environment from a project",
                None,
                [400, 401, 403],
                params=[*P, path_param("environment")],
            )
        },
        f"{project}/access": {
            "get": op(
                "Project access",
                obj(
                    {
                        "roles": array(ref("Role")),
                        "users": array(
                            obj(
                                {
                                    "id": INT,
                                    "name": nullable(STRING),
                                    "email": STRING,
                                    "roles": array(INT),
                                }
                            )
                        ),
                        "groups": array(obj({"id": INT, "name": STRING, "roles": array(INT)})),
                    }
                ),
                [401, 404],
                params=P,
            ),
            "post": op(
                "Configure project access",
                None,
                [401, 403, 404],
                params=P,
                body=obj({"roles": array(INT), "groups": array(INT), "users": array(INT)}),
            ),
        },
        "/api/admin/feature-types": {
            "get": op(
                "Feature types", obj({"version": INT, "types": array(ref("FeatureType"))}), READ
            )
        },
        "/api/admin/feature-types/{id}/lifetime": {
            "put": op(
                "Update feature type lifetime",
                ref("FeatureType"),
                [401, 403, 404],
                params=[path_param("id")],
                body=obj({"lifetimeDays": nullable(LIFETIME_DAYS)}),
            )
        },
        "/api/admin/user-admin": {
            "get": op(
                "Users (ADMIN permission)",
                obj({"users": array(ref("User")), "rootRoles": array(ref("Role"))}),
                [401, 403],
            )
        },
        "/api/admin/user-admin/search": {
            "get": op(
                "Search users",
                obj({"users": array(ref("User")), "rootRoles": array(ref("Role"))}),
                [400, 401],
                params=[{**query_param("q", "At least 2 characters"), "required": True}],
            )
        },
        "/api/admin/roles": {
            "get": op("Roles", obj({"version": INT, "roles": array(ref("Role"))}), READ)
        },
        "/api/admin/groups": {"get": op("Groups", obj({"groups": array(ref("Group"))}), READ)},
        f"{project}/change-requests": {
            "get": op(
                "Change requests of a project, newest first",
                array(ref("ChangeRequest")),
                [401, 404],
                params=P,
            )
        },
        f"{project}/change-requests/{{id}}": {
            "get": op(
                "One change request",
                ref("ChangeRequest"),
                [401, 404],
                params=[*P, path_param("id")],
            ),
            "delete": op(
                "Delete a change request", None, [401, 403, 404], params=[*P, path_param("id")]
            ),
        },
        "/api/admin/addons": {
            "get": op(
                "Integrations",
                obj({"addons": array(ref("Addon")), "providers": array(ref("AddonProvider"))}),
                READ,
            )
        },
        "/api/admin/addons/{id}/events": {
            "get": op(
                "Integration events of an integration, newest first (ADMIN permission)",
                obj({"integrationEvents": array(ref("IntegrationEvent"))}),
                [400, 401, 403, 404],
                params=[path_param("id"), *PAGING],
            )
        },
        "/api/admin/events/search": {
            "post": op(
                "Search events (deprecated)",
                obj(
                    {
                        "version": {"type": "integer", "minimum": 1},
                        "events": array(ref("Event")),
                        "totalEvents": INT,
                    }
                ),
                [401],
                body={
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "enum": sorted(EVENT_TYPES)},
                        "project": STRING,
                        "feature": STRING,
                        "query": STRING,
                        "limit": {"type": "integer", "minimum": 1, "maximum": EVENT_SEARCH_MAX},
                        "offset": {"type": "integer", "minimum": 0},
                    },
                },
            )
        },
        "/api/admin/search/events": {
            "get": op(
                "Search events",
                obj({"events": array(ref("Event")), "total": INT}),
                [400, 401],
                params=[
                    query_param("query", "Free text"),
                    query_param("feature", filt),
                    query_param("project", filt),
                    query_param("type", filt),
                    query_param("createdBy", filt),
                    query_param("environment", filt),
                    query_param("from", "IS:yyyy-MM-dd"),
                    query_param("to", "IS:yyyy-MM-dd"),
                    *PAGING,
                ],
            )
        },
    }


@cache
def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "flagtui sandbox (Unleash admin API subset)", "version": VERSION},
        "servers": [{"url": "/"}],
        "security": [{"apiKey": []}],
        "components": {
            "securitySchemes": {
                "apiKey": {"type": "apiKey", "in": "header", "name": "Authorization"}
            },
            "schemas": SCHEMAS,
        },
        "paths": _paths(),
    }
