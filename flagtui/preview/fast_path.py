"""The engine's `check_variant` through its C interface, for populations.

`UnleashEngine.check_variant` adds to each call a second one into the engine (should the
caller emit an impression event?) and a pass over the custom strategies registered in Python
(none are, here); together they are about 60 % of a call's cost. A population asks 10,000
times, so it calls the C function the wrapper calls (`check_variant`, with the empty
custom-strategy results the wrapper passes when none is registered) on the library and engine
handle the wrapper set up, and reads the answer as the wrapper does. tests/preview checks that
it answers what the wrapper answers; where a version of the wrapper lacks what it uses, the
population goes through the wrapper.
"""

from __future__ import annotations

import ctypes
import json
from collections.abc import Callable
from typing import Any

from yggdrasil_engine.engine import UnleashEngine

Asker = Callable[[dict[str, Any]], dict[str, Any]]
NO_CUSTOM_STRATEGY_RESULTS = b"{}"


def variant_asker(engine: UnleashEngine, name: str) -> Asker | None:
    """A function from a context to the engine's variant answer (`name`, `enabled`,
    `featureEnabled`, `payload`?), or None where the wrapper does not expose its C interface."""
    lib, handle = getattr(engine, "lib", None), getattr(engine, "state", None)
    if lib is None or handle is None or not hasattr(lib, "check_variant"):
        return None
    flag = name.encode("utf-8")

    def ask(context: dict[str, Any]) -> dict[str, Any]:
        pointer = lib.check_variant(
            handle, flag, json.dumps(context).encode("utf-8"), NO_CUSTOM_STRATEGY_RESULTS
        )
        try:
            answer = json.loads(ctypes.cast(pointer, ctypes.c_char_p).value or b"null")
        finally:
            lib.free_response(pointer)
        if not isinstance(answer, dict) or answer.get("status_code") != "Ok":
            raise RuntimeError(f"the evaluation engine failed: {answer!r}")
        value: dict[str, Any] = answer.get("value") or {}
        return value

    return ask
