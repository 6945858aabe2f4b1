"""The OpenAPI document's words for the rollout routes (`app.rollout_routes`): summaries,
error statuses and request bodies. `openapi.DOCS` takes them in."""

from __future__ import annotations

from typing import Any

from flagtui.contract import (
    CONSTRAINT_OPERATORS,
    PATCH_OPS,
    VARIANT_PAYLOAD_TYPES,
    VARIANT_WEIGHT_TOTAL,
    VARIANT_WEIGHT_TYPES,
)

Schema = dict[str, Any]
STRING: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
NUMBER: Schema = {"type": "number"}
PROJECT = "/api/admin/projects/{project}"
ENV = f"{PROJECT}/features/{{feature}}/environments/{{environment}}"
STRATEGY = f"{ENV}/strategies/{{id}}"
FEATURE = f"{PROJECT}/features/{{feature}}"


def obj(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    return {"type": "object", "properties": properties, "required": required or []}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


CONSTRAINT = obj(
    {
        "contextName": STRING,
        "operator": {"type": "string", "enum": list(CONSTRAINT_OPERATORS)},
        "caseInsensitive": BOOL,
        "inverted": BOOL,
        "values": array(STRING),
        "value": STRING,
    },
    ["contextName", "operator"],
)
PAYLOAD = obj(
    {"type": {"type": "string", "enum": list(VARIANT_PAYLOAD_TYPES)}, "value": STRING},
    ["type", "value"],
)
VARIANT = obj(
    {
        "name": STRING,
        "weight": {"type": "integer", "minimum": 0, "maximum": VARIANT_WEIGHT_TOTAL},
        "weightType": {"type": "string", "enum": list(VARIANT_WEIGHT_TYPES)},
        "stickiness": STRING,
        "payload": PAYLOAD,
        "overrides": array(obj({"contextName": STRING, "values": array(STRING)})),
    },
    ["name", "weight"],
)
STRATEGY_BODY = {
    "name": STRING,
    "title": {"type": ["string", "null"]},
    "disabled": {"type": ["boolean", "null"]},
    "sortOrder": NUMBER,
    "constraints": array(CONSTRAINT),
    "variants": array(VARIANT),
    "parameters": {"type": "object", "additionalProperties": STRING},
    "segments": array({"type": "integer"}),
}
SEGMENT = "/api/admin/segments/{id}"
SEGMENT_BODY = obj(
    {
        "name": {"type": "string", "minLength": 1},
        "description": {"type": ["string", "null"]},
        "project": {"type": ["string", "null"]},
        "constraints": array(CONSTRAINT),
    },
    ["name", "constraints"],
)
PATCHES = array(
    obj(
        {
            "op": {"type": "string", "enum": list(PATCH_OPS)},
            "path": STRING,
            "from": STRING,
            "value": {},
        },
        ["op", "path"],
    )
)

PROJECTS = {"anyOf": [array(STRING), {"type": "string", "enum": ["*"]}]}
PLAYGROUND_CONTEXT = {
    "type": "object",
    "properties": {
        "appName": {"type": "string", "minLength": 1},
        "properties": {"type": "object", "additionalProperties": STRING},
    },
    "required": ["appName"],
}


def docs(doc: Any) -> dict[tuple[str, str], Any]:
    """The entries, built with `openapi.Doc` (passed in: that module imports this one)."""
    return {
        ("POST", f"{PROJECT}/features"): doc(
            "Create a feature flag (201 with the short feature row; records feature-created)",
            (404, 409),
            body=obj(
                {
                    "name": STRING,
                    "type": STRING,
                    "description": {"type": ["string", "null"]},
                    "impressionData": BOOL,
                    "tags": array(obj({"type": STRING, "value": STRING}, ["type", "value"])),
                },
                ["name"],
            ),
        ),
        ("POST", "/api/admin/features/validate"): doc(
            "Check that a flag name is URL-friendly and free (200, no body)",
            (409,),
            body=obj({"name": STRING, "projectId": {"type": ["string", "null"]}}, ["name"]),
        ),
        ("POST", f"{FEATURE}/clone"): doc(
            "Clone a flag (201 with the short row; every environment off, strategies and"
            " environment variants copied; records feature-created and feature-strategy-add)",
            (404, 409),
            body=obj({"name": STRING, "replaceGroupId": BOOL}, ["name"]),
        ),
        ("DELETE", "/api/admin/archive/{feature}"): doc(
            "Delete an archived flag for good (200, no body; live or unknown: nothing changes;"
            " records feature-deleted)"
        ),
        ("POST", f"{PROJECT}/delete"): doc(
            "Delete archived flags for good (live or unknown names are skipped; feature-deleted"
            " each)",
            body=obj({"features": array(STRING)}, ["features"]),
        ),
        ("POST", f"{FEATURE}/lifecycle/complete"): doc(
            "Mark a flag completed (200, no body; records feature-completed)",
            body=obj(
                {
                    "status": {"type": "string", "enum": ["kept", "discarded"]},
                    "statusValue": STRING,
                },
                ["status"],
            ),
        ),
        ("GET", "/api/admin/strategies"): doc("Strategy types with their parameters"),
        ("GET", "/api/admin/segments"): doc("Segments"),
        ("POST", "/api/admin/segments"): doc(
            "Create a segment (201 with the segment; records segment-created)",
            (409,),
            body=SEGMENT_BODY,
        ),
        ("GET", SEGMENT): doc("One segment", (404,)),
        ("PUT", SEGMENT): doc(
            "Replace a segment's name, description, project and constraints (204; records"
            " segment-updated)",
            (404, 409),
            body=SEGMENT_BODY,
        ),
        ("DELETE", SEGMENT): doc(
            "Delete a segment no strategy uses (204; records segment-deleted; in use: 409)",
            (404, 409),
        ),
        ("GET", f"{SEGMENT}/strategies"): doc("The strategies that use a segment", (404,)),
        ("GET", f"{ENV}/strategies"): doc(
            "A flag's strategies in one environment, in order", (404,)
        ),
        ("POST", f"{ENV}/strategies"): doc(
            "Add a strategy (records feature-strategy-add)",
            (404,),
            body=obj(STRATEGY_BODY, ["name"]),
        ),
        ("POST", f"{ENV}/strategies/set-sort-order"): doc(
            "Reorder strategies (records strategy-order-changed)",
            (404,),
            body=array(obj({"id": STRING, "sortOrder": NUMBER}, ["id", "sortOrder"])),
        ),
        ("GET", STRATEGY): doc("One strategy", (403, 404)),
        ("PUT", STRATEGY): doc(
            "Replace a strategy (records feature-strategy-update)",
            (404,),
            body=obj(STRATEGY_BODY),
        ),
        ("PATCH", STRATEGY): doc(
            "Change a strategy with JSON Patch operations (records feature-strategy-update)",
            (404,),
            body=PATCHES,
        ),
        ("DELETE", STRATEGY): doc("Remove a strategy (records feature-strategy-remove)", (404,)),
        ("GET", f"{ENV}/variants"): doc("A flag's variants in one environment", (404,)),
        ("PUT", f"{ENV}/variants"): doc(
            "Replace the environment's variants (403 unless the flag already has some)",
            (404,),
            body=array(VARIANT),
        ),
        ("PATCH", f"{ENV}/variants"): doc(
            "Change the environment's variants with JSON Patch operations",
            (404,),
            body=PATCHES,
        ),
        ("POST", "/api/admin/playground"): doc(
            "Evaluate every flag for a context, as the SDKs do (yggdrasil-engine)",
            body=obj(
                {"environment": STRING, "projects": PROJECTS, "context": PLAYGROUND_CONTEXT},
                ["environment", "context"],
            ),
        ),
        ("POST", "/api/admin/playground/advanced"): doc(
            "Evaluate every flag for every combination of comma-separated context values"
            " (at most 15,000 evaluations)",
            body=obj(
                {
                    "environments": {**array(STRING), "minItems": 1},
                    "projects": PROJECTS,
                    "context": PLAYGROUND_CONTEXT,
                },
                ["environments", "context"],
            ),
        ),
        ("POST", "/api/admin/features-batch/export"): doc(
            "Export flags of one environment, as the web UI does (strategies without their"
            " sort order; records features-exported)",
            body={
                "anyOf": [
                    obj(
                        {"environment": STRING, "features": array(STRING)},
                        ["environment", "features"],
                    ),
                    obj({"environment": STRING, "project": STRING}, ["environment", "project"]),
                    obj({"environment": STRING, "tag": STRING}, ["environment", "tag"]),
                ]
            },
        ),
        ("GET", "/api/client/features"): doc(
            "What SDKs read: every flag of the token's environment (ETag, 304 on If-None-Match)"
        ),
    }
