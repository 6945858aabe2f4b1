"""A context typed as `KEY=VALUE` pairs (the TUI's preview field, the commands' `--context`):
a standard field by its name, any other as a property, as SDKs send it. Imports nothing, so a
command's `--help` pays nothing for it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

TYPED_FIELDS = ("userId", "sessionId", "remoteAddress", "currentTime", "appName")


def typed_context(pairs: Iterable[str]) -> dict[str, Any]:
    """The context the pairs say; ValueError naming the first pair that is no `KEY=VALUE`."""
    context: dict[str, Any] = {}
    properties: dict[str, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise ValueError(f"{pair!r}: expected KEY=VALUE")
        (context if key in TYPED_FIELDS else properties)[key] = value
    if properties:
        context["properties"] = properties
    return context
