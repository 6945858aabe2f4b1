"""Real Unleash allows 15 feature searches a minute per client, then answers 429.

The client spends that budget deliberately: identical searches are cached, and once the budget
is spent a search that the project's feature list can answer (name/description text, type,
stale/active, sort, paging) is answered from that list instead; only lifecycle and
potentially-stale filters need the search endpoint itself.
"""

from __future__ import annotations

import time
from collections import deque
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from flagtui.api.models import Feature, FeaturePage

if TYPE_CHECKING:
    from flagtui.api.feature_query import FeatureQuery

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class SearchBudget:
    """A sliding window of request times; `wait()` says how long until one more is allowed."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._sent: deque[float] = deque()

    def wait(self) -> float:
        now = time.monotonic()
        while self._sent and now - self._sent[0] >= self.window_s:
            self._sent.popleft()
        if len(self._sent) < self.limit:
            return 0.0
        return self.window_s - (now - self._sent[0])

    def spare(self) -> int:
        """Searches still allowed in the current window."""
        self.wait()  # drops the requests that left the window
        return self.limit - len(self._sent)

    def spend(self) -> None:
        self._sent.append(time.monotonic())

    def exhaust(self) -> None:
        """The server said 429: count the window as spent."""
        now = time.monotonic()
        self._sent.extend([now] * max(0, self.limit - len(self._sent)))


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
