"""The feature search's rate limit, as the server says it is, never guessed.

Unleash 8.2 allows 15 feature searches a minute per client IP (its
SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE), shared by everything on that IP: the web UI, scripts,
other flagtuis. Each of its search answers says what is left in `RateLimit-Remaining` and when
the window ends in `RateLimit-Reset` (seconds), a 429 in `Retry-After`. Unleash 6.x and 7.x
have no such limit and send no such header: nothing is held back there.

The client spends what is left deliberately: identical searches are cached, a page is read
ahead only while half the budget is left, and once none is left a search that the project's
feature list can answer (name/description text, type, stale/active, sort, paging) is answered
from that list instead; only lifecycle and potentially-stale filters need the search itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import Feature, FeaturePage

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
UNSAID_RESET_S = 60.0  # a limit whose window's end the server does not say: Unleash's window


class SearchBudget:
    """What the server's last search answer said is left; unlimited until one says otherwise."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit: int | None = None
        """Searches a window allows (`RateLimit-Limit`); None where none was said."""
        self.remaining: int | None = None
        """Searches left in the window; None: the server limits nothing (or was not asked)."""
        self._clock = clock
        self._resets_at = 0.0

    def heard(self, headers: Mapping[str, str]) -> None:
        """A search's answer, whatever its status: its RateLimit headers, or their absence."""
        remaining = _count(headers.get("ratelimit-remaining"))
        if remaining is None:
            self.limit = self.remaining = None
            return
        reset = _count(headers.get("ratelimit-reset"))
        self.limit = _count(headers.get("ratelimit-limit"))
        self.remaining = remaining
        self._resets_at = self._clock() + (UNSAID_RESET_S if reset is None else reset)

    def exhaust(self, retry_after: float) -> None:
        """The server answered 429: nothing is left until `retry_after` has passed."""
        self.remaining = 0
        self._resets_at = self._clock() + retry_after

    def wait(self) -> float:
        """Seconds until a search may be sent: 0 unless the server said none is left."""
        if self.remaining is None or self.remaining > 0:
            return 0.0
        left = self._resets_at - self._clock()
        if left > 0:
            return left
        self.remaining = self.limit  # a new window, as far as this client knows
        return 0.0

    def half_left(self) -> bool:
        """At least half of the window's searches are left (or nothing is limited)."""
        if self.wait() > 0:
            return False
        if self.remaining is None or self.limit is None:
            return True
        return self.remaining * 2 >= self.limit


def _count(raw: str | None) -> int | None:
    """A header's non-negative whole number; None when absent or unreadable."""
    text = (raw or "").strip()
    return int(text) if text.isdigit() else None


def page_from_list(features: list[Feature], q: FeatureQuery) -> FeaturePage:
    """The page the search would answer, from the project's feature list (`q.list_can_answer`)."""
    text = (q.query or "").lower()
    wanted = [
        f
        for f in features
        if (not text or text in f.name.lower() or text in (f.description or "").lower())
        and (not q.types or f.type in q.types)
        and (not q.states or ("stale" if f.stale else "active") in q.states)
    ]
    keys = {
        "name": lambda f: f.name,
        "type": lambda f: (f.type or "", f.name),
        "createdAt": lambda f: (f.created_at or _EPOCH, f.name),
    }
    wanted.sort(key=keys[q.sort_by], reverse=q.sort_order == "desc")
    return FeaturePage(
        features=wanted[q.offset : q.offset + q.limit], total=len(wanted), source="project-list"
    )
