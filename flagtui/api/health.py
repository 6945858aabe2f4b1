"""Whether the server answers: updated by every request of the client, watched by the UI.

A request that gets no answer (unreachable, timeout, TLS) or a 502/503/504 (a proxy or load
balancer saying the server behind it is down or unavailable) counts as a failure; any other
answer, an error like 404 or 500 included, shows the server is there. Listeners are called on
the transitions only (answering -> failing -> answering), so a watcher costs nothing per
request. A UI left idle learns that the server is back from `AdminClient.probe`, one light
request every `PROBE_EVERY_S` while the server is marked down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from flagtui.api import errors

UNAVAILABLE = frozenset({502, 503, 504})
PROBE_EVERY_S = 5.0
"""While the server is marked down, how long after the latest failure a UI asks it again whether
it is back (`AdminClient.probe`)."""


def is_outage(error: BaseException) -> bool:
    """True when the error means the server did not answer, or answered that it is failing."""
    if isinstance(error, errors.NotConnected):
        return is_outage(error.reason)
    if isinstance(error, errors.ServerError | errors.OutcomeUnknown) and error.status is not None:
        return error.status in UNAVAILABLE  # a write's unprovable 2xx is still an answer
    no_answer = errors.Unreachable | errors.RequestTimeout | errors.OutcomeUnknown | errors.TlsError
    return isinstance(error, no_answer)


@dataclass
class Health:
    last_success: datetime | None = None
    failing_since: datetime | None = None
    """The first failure since the last success; None while the server answers."""
    failure: errors.FlagtuiError | None = None
    """The latest failure, while failing."""
    failed_at: datetime | None = None
    """When the latest failure was recorded."""
    back_at: datetime | None = None
    """When the server answered again after failing (None if it never failed)."""
    _listeners: list[Callable[[], None]] = field(default_factory=list, repr=False)

    @property
    def failing(self) -> bool:
        return self.failing_since is not None

    def probe_due(self, now: datetime) -> bool:
        """Failing, and nothing has failed for `PROBE_EVERY_S`: neither a read of the UI's own
        nor the previous probe."""
        if not self.failing or self.failed_at is None:
            return False
        return (now - self.failed_at).total_seconds() >= PROBE_EVERY_S

    def subscribe(self, listener: Callable[[], None]) -> None:
        """`listener()` is called whenever `failing` changes."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def succeeded(self) -> None:
        now = datetime.now(UTC)
        self.last_success = now
        if self.failing_since is not None:
            self.failing_since = None
            self.failure = None
            self.back_at = now
            self._changed()

    def failed(self, error: BaseException) -> None:
        """Record a request's error; errors that are answers count as successes."""
        if not is_outage(error):
            self.succeeded()
            return
        self.failure = error if isinstance(error, errors.FlagtuiError) else None
        self.failed_at = datetime.now(UTC)
        if self.failing_since is None:
            self.failing_since = self.failed_at
            self._changed()

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()
