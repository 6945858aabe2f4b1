"""The metric families, built at each scrape (a custom collector, as prometheus-client
recommends for values read from elsewhere): the archive's counts (`archive.tallies`) and the
running collector's polls (`PollRecord`, told by `Collector.run` through its `watch`).

Timestamps are seconds since 1970; 0 means never (a last success or failure not seen yet).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit, urlunsplit

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector as Exporter

from flagtui.api import errors
from flagtui.api.health import Health
from flagtui.archive.collector import PollResult
from flagtui.archive.lease import activity
from flagtui.archive.store import Archive
from flagtui.archive.tallies import ServerTally, tally
from flagtui.display import clean

INTEGRATION_LABELS = ["server", "integration_id", "description", "provider"]


def server_label(url: str) -> str:
    """The server's URL without any user or password in it."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def error_reason(error: BaseException) -> str:
    """A poll error's reason label: the class of what failed (a bounded set), a failed
    connect's own reason rather than the wrapper's."""
    if isinstance(error, errors.NotConnected):
        return error_reason(error.reason)
    return type(error).__name__


def _seconds(at: datetime | None) -> float:
    return at.timestamp() if at is not None else 0.0


class PollRecord:
    """What `Collector.run` tells of its polls (a `collector.PollWatch`); read by the scrape's
    thread, written by the collector's: one lock."""

    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.clock = clock
        self.started = clock()
        self.last_poll: datetime | None = None
        self.last_success: datetime | None = None
        self.complete: bool | None = None  # the last poll's walks all met what was stored
        self.errors: Counter[str] = Counter()
        self._lock = threading.Lock()

    def polled(self, result: PollResult) -> None:
        with self._lock:
            self.last_poll = self.last_success = self.clock()
            self.complete = not result.gaps

    def poll_failed(self, error: Exception) -> None:
        with self._lock:
            self.last_poll = self.clock()
            self.complete = False
            self.errors[error_reason(error)] += 1

    def snapshot(self) -> PollSnapshot:
        with self._lock:
            return PollSnapshot(
                self.started, self.last_poll, self.last_success, self.complete, dict(self.errors)
            )


@dataclass(frozen=True)
class PollSnapshot:
    started: datetime
    last_poll: datetime | None
    last_success: datetime | None
    complete: bool | None
    errors: dict[str, int]


class CollectorMetrics(Exporter):
    """One server's metrics. `health`: the admin client's record of whether the server
    answers."""

    def __init__(self, archive: Archive, server_url: str, polls: PollRecord, health: Health):
        self.archive = archive
        self.server = server_label(server_url)
        self.polls = polls
        self.health = health

    def collect(self) -> Iterator[Metric]:
        yield from self._integrations(tally(self.archive))
        yield from self._server()

    def _integrations(self, found: ServerTally) -> Iterator[Metric]:
        deliveries = CounterMetricFamily(
            "flagtui_integration_deliveries",
            "Deliveries the archive holds, by state (counted from the archive: a restart of"
            " the collector resets nothing)",
            labels=[*INTEGRATION_LABELS, "state"],
        )
        success = GaugeMetricFamily(
            "flagtui_integration_last_success_timestamp_seconds",
            "When the newest successful delivery was made (0: none stored)",
            labels=INTEGRATION_LABELS,
        )
        failure = GaugeMetricFamily(
            "flagtui_integration_last_failure_timestamp_seconds",
            "When the newest failed delivery (any state but success) was made (0: none stored)",
            labels=INTEGRATION_LABELS,
        )
        enabled = GaugeMetricFamily(
            "flagtui_integration_enabled",
            "1 when the integration is enabled on the server, as of the last poll",
            labels=INTEGRATION_LABELS,
        )
        gaps = CounterMetricFamily(
            "flagtui_integration_delivery_gaps",
            "Gaps found: stretches of deliveries the server forgot before they were collected"
            " (possibly lost)",
            labels=INTEGRATION_LABELS,
        )
        for one in found.integrations:
            ref = one.ref
            # Server text: an alert's summary shows it, so through the display boundary.
            labels = [self.server, str(ref.id), clean(ref.description or ""), clean(ref.provider)]
            for state, count in sorted(one.deliveries.items()):
                deliveries.add_metric([*labels, state], count)
            success.add_metric(labels, _seconds(one.last_success))
            failure.add_metric(labels, _seconds(one.last_failure))
            enabled.add_metric(labels, 1.0 if ref.enabled else 0.0)
            gaps.add_metric(labels, one.gaps)
        until = GaugeMetricFamily(
            "flagtui_archive_collected_until_timestamp_seconds",
            "Up to when the archive holds every delivery the server kept (the last poll that"
            " read every integration; 0: none yet)",
            labels=["server"],
        )
        until.add_metric([self.server], _seconds(found.collected_until))
        yield from (deliveries, success, failure, enabled, gaps, until)

    def _server(self) -> Iterator[Metric]:
        labels = [self.server]
        polls = self.polls.snapshot()
        start = GaugeMetricFamily(
            "flagtui_collector_start_timestamp_seconds",
            "When this collector started",
            labels=["server"],
        )
        start.add_metric(labels, _seconds(polls.started))
        yield start
        for name, at, text in (
            ("last_poll", polls.last_poll, "When the collector's last poll ended, however"),
            ("last_success", polls.last_success, "When the collector's last good poll ended"),
        ):
            if at is not None:  # absent until it happened (a rule tells "never" by start)
                family = GaugeMetricFamily(
                    f"flagtui_collector_{name}_timestamp_seconds", text, labels=["server"]
                )
                family.add_metric(labels, _seconds(at))
                yield family
        failed = CounterMetricFamily(
            "flagtui_collector_poll_errors",
            "Polls that failed since the collector started, by reason (the error's kind)",
            labels=["server", "reason"],
        )
        for reason, count in sorted(polls.errors.items()):
            failed.add_metric([self.server, reason], count)
        yield failed
        if polls.complete is not None:
            whole = GaugeMetricFamily(
                "flagtui_archive_complete",
                "1 when the last poll read every integration up to what the archive held"
                " (no gap, no failure)",
                labels=["server"],
            )
            whole.add_metric(labels, 1.0 if polls.complete else 0.0)
            yield whole
        if self.health.last_success is not None or self.health.failing:
            up = GaugeMetricFamily(
                "flagtui_server_up",
                "1 when the server answered the collector's last request",
                labels=["server"],
            )
            up.add_metric(labels, 0.0 if self.health.failing else 1.0)
            yield up
        active = GaugeMetricFamily(
            "flagtui_collector_active",
            "1 when this process collects the server into the archive; 0 while it stands by"
            " (another collector holds the archive's lock)",
            labels=["server"],
        )
        active.add_metric(labels, 1.0 if activity(self.archive).ours else 0.0)
        yield active
