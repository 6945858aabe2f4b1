"""Real Unleash 8.2's limit on the feature search: so many requests a minute per client IP.

As there (express-rate-limit's memory store, IETF draft 6 headers): a fixed window per IP that
starts at its first request after the last window ended; only requests with a valid token count
(the limit runs after authentication), whatever they are answered; every answer carries
`RateLimit-Policy`, `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds
until the window ends, rounded up); past the limit a 429 with `Retry-After` and the plain text
below. The limit is read as Unleash reads it, from SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE
(default 15), unless the app is given one (the demo and the tests' sandboxes ask for more).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable

from starlette.responses import Response

LIMIT_ENV = "SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE"
UNLEASH_DEFAULT = 15
WINDOW_S = 60.0
TOO_MANY = "Too many requests, please try again later."
PLENTY = 100_000  # the demo's and the test suite's sandboxes: a search never waits there


def configured_limit(given: int | None) -> int:
    """`given`, else the environment's as Unleash parses it (a number, else the default)."""
    if given is not None:
        return given
    try:
        return int(os.environ.get(LIMIT_ENV, ""))
    except ValueError:
        return UNLEASH_DEFAULT


class SearchLimit:
    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._windows: dict[str, tuple[int, float]] = {}  # IP: (requests, window's end)
        self._lock = threading.Lock()

    def take(self, ip: str) -> tuple[dict[str, str], Response | None]:
        """Count one request from `ip`: the headers for its answer, and the 429 to send
        instead of it past the limit (None: serve it)."""
        now = self._clock()
        with self._lock:
            hits, ends = self._windows.get(ip, (0, 0.0))
            if ends <= now:
                hits, ends = 0, now + WINDOW_S
            hits += 1
            self._windows[ip] = (hits, ends)
        # whole seconds, rounded up; to the millisecond first: (now + 60) - now may be 60.0000001
        reset = str(max(0, math.ceil(round(ends - now, 3))))
        headers = {
            "RateLimit-Policy": f"{self.per_minute};w={WINDOW_S:.0f}",
            "RateLimit-Limit": str(self.per_minute),
            "RateLimit-Remaining": str(max(self.per_minute - hits, 0)),
            "RateLimit-Reset": reset,
        }
        if hits <= self.per_minute:
            return headers, None
        refused = Response(TOO_MANY, status_code=429, media_type="text/html")
        refused.headers.update({**headers, "Retry-After": reset})
        return headers, refused
