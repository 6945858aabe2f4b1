"""Unleash's published admin OpenAPI document (v7.5.0, Enterprise operations included), read at
test time from `shared/reference/` beside the checkout (or the file FLAGTUI_OPENAPI_REFERENCE
names); never copied into the repository.

`reference()` skips the calling test, saying why, when the document is not there. Schemas are
OpenAPI 3.0 (`nullable`): `validator()` turns one into JSON Schema draft 4 with the document's
components beside it (so `$ref`s resolve) for jsonschema_rs; `instances()` generates values of
one with schemathesis (a one-operation document whose request body is that schema), as
hypothesis-jsonschema 0.23 no longer runs on the Hypothesis we have.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from hypothesis import strategies as st
from skip_reasons import NO_OPENAPI_REFERENCE, OPENAPI_ENV

ROOT = Path(__file__).resolve().parent.parent
NAME = Path("shared", "reference", "unleash-openapi-7.5.0.json")
# beside the checkout (CI's clone), or beside a folder holding it (a git worktree's)
PLACES = [folder / NAME for folder in ROOT.parents]


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    spec: dict[str, Any]

    @property
    def query_names(self) -> set[str]:
        return {p["name"] for p in self.spec.get("parameters", []) if p.get("in") == "query"}

    def body_schema(self) -> dict[str, Any] | None:
        body = self.spec.get("requestBody", {}).get("content", {}).get("application/json", {})
        return body.get("schema")

    def response_schema(self, status: str = "200") -> dict[str, Any] | None:
        answer = self.spec.get("responses", {}).get(status, {})
        return answer.get("content", {}).get("application/json", {}).get("schema")


class Reference:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.components = _json_schema(document.get("components", {}))
        self._routes = [
            (re.compile("^" + re.sub(r"\\{[^/]+\\}", "[^/]+", re.escape(path)) + "$"), path)
            for path in document["paths"]
        ]

    def operation(self, method: str, path: str) -> Operation | None:
        """The documented operation a concrete request path (percent-decoded) belongs to;
        a literal path wins over a template (`/search/events` over `/search/{x}`)."""
        templates = [t for rx, t in self._routes if rx.match(path)]
        templates.sort(key=lambda t: t.count("{"))
        for template in templates:
            spec = self.document["paths"][template].get(method.lower())
            if spec is not None:
                return Operation(method.upper(), template, spec)
        return None

    def problems(self, schema: dict[str, Any], instance: Any) -> list[str]:
        """What in `instance` does not match the documented `schema` ([] when it does)."""
        validator = jsonschema_rs.Draft4Validator(
            {**_json_schema(schema), "components": self.components}
        )
        return [f"{e.instance_path}: {e.message}"[:300] for e in validator.iter_errors(instance)]

    def instances(self, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
        """Values the documented `schema` allows."""
        body = {"required": True, "content": {"application/json": {"schema": schema}}}
        operation = {"requestBody": body, "responses": {"200": {"description": "ok"}}}
        document = {
            "openapi": "3.0.3",
            "info": {"title": "one schema", "version": "1"},
            "paths": {"/instance": {"post": operation}},
            "components": {"schemas": self.document["components"]["schemas"]},
        }
        loaded = schemathesis.openapi.from_dict(document)
        return loaded["/instance"]["POST"].as_strategy().map(lambda case: case.body)


@functools.cache
def _load() -> Reference | None:
    named = os.environ.get(OPENAPI_ENV)
    places = [Path(named)] if named else PLACES[:2]
    document = next((p for p in places if p.is_file()), None)
    if document is None:
        return None
    return Reference(json.loads(document.read_text(encoding="utf-8")))


def reference() -> Reference:
    found = _load()
    if found is None:
        pytest.skip(NO_OPENAPI_REFERENCE)
    return found


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0 -> JSON Schema: `nullable: true` becomes a null alternative; `example`s go."""
    if isinstance(node, list):
        return [_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _json_schema(v) for k, v in node.items() if k not in ("example", "nullable")}
    if node.get("nullable") is True:
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            return {"anyOf": [out, {"type": "null"}]}
    return out
