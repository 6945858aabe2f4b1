"""The OpenAPI document's words for the context field routes (`context_fields`): summaries,
error statuses and request bodies. `openapi.DOCS` takes them in."""

from __future__ import annotations

from typing import Any

from flagtui.contract import CONTEXT_DESCRIPTION_MAX, LEGAL_VALUE_MAX, NAME_MAX

ONE = "/api/admin/context/{name}"
LEGAL_VALUE = {
    "type": "object",
    "properties": {
        "value": {"type": "string", "minLength": 1, "maxLength": LEGAL_VALUE_MAX},
        "description": {"type": "string"},
    },
    "required": ["value"],
}
FIELD_BODY = {
    "description": {"type": ["string", "null"], "maxLength": CONTEXT_DESCRIPTION_MAX},
    "stickiness": {"type": "boolean"},
    "sortOrder": {"type": "integer"},
    "legalValues": {"type": "array", "items": LEGAL_VALUE},
}


def docs(doc: Any) -> dict[tuple[str, str], Any]:
    """The entries, built with `openapi.Doc` (passed in: that module imports this one)."""
    name = {"type": "string", "minLength": 1, "maxLength": NAME_MAX}
    return {
        ("GET", "/api/admin/context"): doc("Context fields (a bare array, by name)"),
        ("POST", "/api/admin/context"): doc(
            "Create a context field (201 with it; records context-field-created)",
            (409,),
            body={
                "type": "object",
                "properties": {"name": name, **FIELD_BODY},
                "required": ["name"],
            },
        ),
        ("GET", ONE): doc("One context field", (404,)),
        ("PUT", ONE): doc(
            "Replace a context field's description, legal values and stickiness (200, no"
            " body; the sort order becomes 0; records context-field-updated)",
            (404,),
            body={"type": "object", "properties": FIELD_BODY, "required": []},
        ),
        ("DELETE", ONE): doc(
            "Delete a context field (409 while a live flag's strategy uses it; records"
            " context-field-deleted)",
            (404, 409),
        ),
        ("GET", f"{ONE}/strategies"): doc(
            "The strategies of live flags with a constraint on the field"
        ),
    }
