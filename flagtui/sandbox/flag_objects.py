"""The routes of three objects around a flag (issue 46): its tags and the tag types, its
dependency on a parent flag, and a project environment's default strategy; with their OpenAPI
entries. Built with `app.ApiRoute` and `openapi.Doc`, passed in (both modules import this one),
as `openapi_rollout.docs` is."""

from __future__ import annotations

from typing import Any

from flagtui.sandbox import default_strategy, dependencies, tags

STRING = {"type": "string"}
TAG = {
    "type": "object",
    "properties": {"type": {**STRING, "minLength": 2, "maxLength": 50},
                   "value": {**STRING, "minLength": 2, "maxLength": 50}},
    "required": ["type", "value"],
}  # fmt: skip
TAG_CHANGES = {
    "type": "object",
    "properties": {"addedTags": {"type": "array", "items": TAG},
                   "removedTags": {"type": "array", "items": TAG}},
    "required": ["addedTags", "removedTags"],
}  # fmt: skip
TAGS = "/api/admin/features/{feature}/tags"
PROJECT = "/api/admin/projects/{project}"
DEPENDENCIES = f"{PROJECT}/features/{{feature}}/dependencies"
DEFAULT = f"{PROJECT}/environments/{{environment}}/default-strategy"


def routes(route: Any) -> list[Any]:
    """`route`: `app.ApiRoute`."""
    return [
        route(TAGS, "POST", tags.add_tag, write=True, body=True, ok=201),
        route(TAGS, "PUT", tags.update_tags, write=True, body=True),
        route(f"{TAGS}/{{type}}/{{value}}", "DELETE", tags.remove_tag, write=True),
        route(f"{PROJECT}/tags", "PUT", tags.bulk_tags, write=True, body=True),
        route("/api/admin/tag-types", "GET", tags.list_types),
        route("/api/admin/tag-types", "POST", tags.create_type, write=True, body=True, ok=201),
        route("/api/admin/tag-types/validate", "POST", tags.validate_type, body=True),
        route("/api/admin/tag-types/{name}", "GET", tags.get_type),
        route(DEPENDENCIES, "POST", dependencies.add, write=True, body=True),
        route(DEPENDENCIES, "DELETE", dependencies.remove_all, write=True),
        route(f"{DEPENDENCIES}/{{parent}}", "DELETE", dependencies.remove, write=True),
        route(DEFAULT, "POST", default_strategy.set_default, write=True, body=True),
    ]


def docs(doc: Any) -> dict[tuple[str, str], Any]:
    """`doc`: `openapi.Doc`."""
    tag_type = {
        "type": "object",
        "properties": {"name": STRING, "description": STRING, "icon": STRING},
        "required": ["name"],
    }
    return {
        ("POST", TAGS): doc("Tag a flag (tag-created for a new tag, feature-tagged)", (404,),
                            body=TAG),
        ("PUT", TAGS): doc("Add and remove a flag's tags", (404,), body=TAG_CHANGES),
        ("DELETE", f"{TAGS}/{{type}}/{{value}}"): doc(
            "Untag a flag (feature-untagged, whether or not it had the tag)", (404,)
        ),
        ("PUT", f"{PROJECT}/tags"): doc(
            "Add and remove tags on several flags of the project", (404,),
            body={"type": "object", "required": ["features", "tags"],
                  "properties": {"features": {"type": "array", "items": STRING},
                                 "tags": TAG_CHANGES}},
        ),
        ("GET", "/api/admin/tag-types"): doc("Tag types"),
        ("POST", "/api/admin/tag-types"): doc("Create a tag type (tag-type-created)", (409,),
                                              body=tag_type),
        ("POST", "/api/admin/tag-types/validate"): doc(
            "Check a new tag type's name", (409,), body=tag_type
        ),
        ("GET", "/api/admin/tag-types/{name}"): doc("One tag type", (404,)),
        ("POST", DEPENDENCIES): doc(
            "Make the flag depend on a parent flag of its project (feature-dependency-added)",
            (404,),
            body={"type": "object", "required": ["feature"],
                  "properties": {"feature": STRING, "enabled": {"type": "boolean"},
                                 "variants": {"type": "array", "items": STRING}}},
        ),
        ("DELETE", DEPENDENCIES): doc("Remove the flag's dependencies"
                                      " (feature-dependencies-removed)", (404,)),
        ("DELETE", f"{DEPENDENCIES}/{{parent}}"): doc(
            "Remove the flag's dependency on one parent (feature-dependency-removed)", (404,)
        ),
        ("POST", DEFAULT): doc(
            "Set the environment's default strategy for the project (default-strategy-updated)",
            (404,),
            body={"type": "object", "required": ["name"],
                  "properties": {"name": {"const": "flexibleRollout"},
                                 "constraints": {"type": "array"},
                                 "parameters": {"type": "object",
                                                "additionalProperties": STRING}}},
        ),
    }  # fmt: skip
