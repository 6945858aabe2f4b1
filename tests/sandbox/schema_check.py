"""Checks an answer of the sandbox against its own OpenAPI document."""

from __future__ import annotations

import httpx
import schemathesis

from flagtui.sandbox.app import openapi_document

# schemathesis validates a response against the operation's documented status codes and
# their schemas (OpenAPI's own keywords such as `nullable` included).
SCHEMA = schemathesis.openapi.from_dict(openapi_document())


def check(response: httpx.Response, template: str, method: str) -> None:
    SCHEMA[template][method].validate_response(response)
