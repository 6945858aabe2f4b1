"""`--context KEY=VALUE` as `flagtui playground` and the rollout writes' previews read it: a
standard field by its name, any other as a property (as SDKs send it), appName defaulted."""

from __future__ import annotations

import argparse
from typing import Any

from flagtui.cli.exits import UsageError
from flagtui.typed_context import typed_context

APP_NAME = "flagtui-playground"  # the server's playground needs one; --context appName=… sets it
HELP = (
    "a context field (repeatable): userId, sessionId, remoteAddress, currentTime,"
    f" appName (default {APP_NAME}), or any other (a property)"
)


def context_option(p: argparse.ArgumentParser, help: str = HELP) -> None:
    p.add_argument("--context", action="append", metavar="KEY=VALUE", help=help)


def context_of(pairs: list[str], environment_from: str = "--env") -> dict[str, Any]:
    """`environment_from`: where the command takes the environment (a context field may not
    name it)."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.constraint_rules import is_context_time

    for pair in pairs:
        key, equals, value = pair.partition("=")
        if key in ("environment", "properties"):
            raise UsageError(f"--context {key}: give the environment with {environment_from}")
        if equals and key == "currentTime" and not is_context_time(value):
            said = f"a date and time with its zone, e.g. 2026-01-31T09:00:00Z (not {value!r})"
            raise UsageError(f"--context currentTime: {said}")  # the SDKs read no time in it
    try:
        return {"appName": APP_NAME, **typed_context(pairs)}
    except ValueError as exc:
        raise UsageError(f"--context {exc}") from None
