"""What a failure source answers: failures with the integration they belong to, where they came
from, and the stretches of time where deliveries may be missing (gaps)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from flagtui.value import Value

if TYPE_CHECKING:  # annotations only: the archive's reads never load the client's models
    from flagtui.api.models import Addon, IntegrationEvent

    Origin = Literal["archive", "live"]
else:
    Origin = str  # for the modules that import the name; only a type checker reads its values


def aware(value: datetime) -> datetime:
    """A time from the API, with its zone (UTC when the server left it out)."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class IntegrationRef(Value):
    """An integration as triage names it; `deleted` once the server no longer has it (only an
    archive can know of such an integration)."""

    def __init__(
        self,
        id: int,
        provider: str,
        description: str | None = None,
        enabled: bool = True,
        deleted: bool = False,
    ) -> None:
        self.id = id
        self.provider = provider
        self.description = description
        self.enabled = enabled
        self.deleted = deleted

    @classmethod
    def of(cls, addon: Addon) -> IntegrationRef:
        return cls(addon.id, addon.provider, addon.description, addon.enabled)

    @property
    def label(self) -> str:
        """ "Deploy alerts (webhook)"; "webhook #2" when it has no description."""
        named = f"{self.description} ({self.provider})" if self.description else None
        label = named or f"{self.provider} #{self.id}"
        return f"{label} [deleted]" if self.deleted else label


def labels(refs: Iterable[IntegrationRef]) -> dict[int, str]:
    """Each integration's label, with its id where another one has the same label ("Alerts
    (slack) #4" and "Alerts (slack) #9"): two integrations never read alike."""
    refs = list(refs)
    counts = Counter(ref.label for ref in refs)
    return {ref.id: ref.label + (f" #{ref.id}" if counts[ref.label] > 1 else "") for ref in refs}


class Delivery(Value):
    """A delivery as triage holds it: what it sorts, groups and shows by, and `wire`, the API's
    JSON of it (the fields the server sent), which is what is printed. Made from the client's
    model (`of`) or from the archive's row (`archive.stored`): a fresh archive's answer then
    loads no model of the client (pydantic's start costs more than the answer's reads)."""

    def __init__(
        self,
        id: str,
        integration_id: int,
        created_at: datetime,
        state: str,
        state_details: str | None,
        wire: dict[str, Any],
    ) -> None:
        self.id = id
        self.integration_id = integration_id
        self.created_at = created_at
        self.state = state
        self.state_details = state_details
        self.wire = wire

    @classmethod
    def of(cls, delivery: IntegrationEvent) -> Delivery:
        wire = delivery.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return cls(
            delivery.id,
            delivery.integration_id,
            delivery.created_at,
            delivery.state,
            delivery.state_details,
            wire,
        )

    @property
    def failed(self) -> bool:
        return self.state != "success"

    @property
    def details(self) -> dict[str, Any] | None:
        details = self.wire.get("details")
        return details if isinstance(details, dict) else None

    @property
    def event(self) -> dict[str, Any] | None:
        """The event that triggered it, as the API's JSON (None: none, or none readable)."""
        event = self.wire.get("event")
        return event if isinstance(event, dict) else None

    @property
    def event_type(self) -> str | None:
        event = self.event
        return None if event is None else event.get("type")


class Failure(Value):
    def __init__(self, integration: IntegrationRef, delivery: Delivery, origin: Origin) -> None:
        self.integration = integration
        self.delivery = delivery
        self.origin = origin


class Gap(Value):
    """Deliveries of `integration_id` between `start` and `end` may never have been seen."""

    def __init__(self, integration_id: int, start: datetime, end: datetime) -> None:
        self.integration_id = integration_id
        self.start = start
        self.end = end


class FailureGroup(Value):
    """Failures of one integration with the same normalised error text (`error_key`);
    `newest` is its most recent failure (its triggering event: the change and who made it)."""

    def __init__(
        self,
        integration: IntegrationRef,
        error_key: str,
        example: str,
        count: int,
        first_seen: datetime,
        last_seen: datetime,
        newest: Failure | None = None,
    ) -> None:
        self.integration = integration
        self.error_key = error_key
        self.example = example
        self.count = count
        self.first_seen = first_seen
        self.last_seen = last_seen
        self.newest = newest

    @property
    def fields(self) -> tuple[IntegrationRef, str, str, int, datetime, datetime]:
        """What it was made of, but `newest`."""
        return (
            self.integration, self.error_key, self.example, self.count, self.first_seen,
            self.last_seen,
        )  # fmt: skip


class FailureWindow(Value):
    """Failures since a time, newest first, with what the source knows of its own coverage."""

    __hash__ = None  # type: ignore[assignment]  # filled in as it is read: unhashable

    def __init__(
        self,
        origin: Origin,
        since: datetime | None,
        integrations: list[IntegrationRef],
        failures: list[Failure] | None = None,
        groups: list[FailureGroup] | None = None,
        gaps: list[Gap] | None = None,
        covers_since: datetime | None = None,
        total: int = 0,
        collected_until: datetime | None = None,
        complete: bool = True,
        unchecked: str | None = None,
        live_added: int = 0,
        as_of: datetime | None = None,
        unreadable: int = 0,
        listed: dict[int, list[tuple[int, datetime]]] | None = None,
        unreached: list[int] | None = None,
        complete_since: datetime | None = None,
        clock_fault: str | None = None,
        succeeded: dict[int, datetime] | None = None,
    ) -> None:
        self.origin = origin
        self.since = since
        self.integrations = integrations
        self.failures: list[Failure] = [] if failures is None else failures
        self.groups: list[FailureGroup] = [] if groups is None else groups
        self.gaps: list[Gap] = [] if gaps is None else gaps
        # The oldest time the source still covers: a live server forgets (real Unleash keeps
        # about the newest 100 deliveries of the last 2 hours); None when unknown.
        self.covers_since = covers_since
        self.total = total  # failures in the window; `failures` may hold only the newest
        # An archive's freshness: up to when a collector last read the server (None: never).
        self.collected_until = collected_until
        # Whether the whole window was checked; when not, `unchecked` says why (an archive
        # answers only up to its last collection, and the live server could not be read for
        # the rest, or no longer lists all of it).
        self.complete = complete
        self.unchecked = unchecked
        # Failures read from the live server that the archive did not hold (merged in).
        self.live_added = live_added
        # Up to when the answer is known: the live read's start, or the archive's last
        # complete collection when the live server was not read (None: never collected, nor
        # read).
        self.as_of = as_of
        # Archive rows left out because they cannot be read (a bad time, an event not JSON).
        self.unreadable = unreadable
        # A live read: each integration's deliveries it listed, (id, time), newest first.
        self.listed: dict[int, list[tuple[int, datetime]]] = {} if listed is None else listed
        # The integrations whose deliveries of the window the answer may not hold in full (so
        # `complete` is False): the live server no longer lists them all since the archive's
        # newest (an old archive), or since the window's start (a read of the server alone).
        self.unreached: list[int] = [] if unreached is None else unreached
        # A read of the server alone: the time back to which it holds every delivery of the
        # window's integrations (`triage.coverage`); None: all they ever had.
        self.complete_since = complete_since
        # An archive whose last collection is later than now (a collector's clock runs ahead):
        # what is wrong, said with the answer; its rows still count only up to what was read.
        self.clock_fault = clock_fault
        # A live read: each integration's newest successful delivery it listed (the server
        # keeps each integration's latest delivery, so a fixed one shows here).
        self.succeeded: dict[int, datetime] = {} if succeeded is None else succeeded

    @property
    def unreadable_note(self) -> str | None:
        """ "1 row unreadable (skipped)", said by every reader of the window; None when none."""
        if not self.unreadable:
            return None
        rows = "row" if self.unreadable == 1 else "rows"
        return f"{self.unreadable} {rows} unreadable (skipped)"
