"""How the triage screens show failures (the failures view and the integrations' sparklines):
the time windows both share, a failure's and a group's row and preview, where the rows come
from (the live server or the archive) and the window's gaps.

Times: rows say how long ago (a week or less) or the date; the preview under the table says
the absolute time, local with the zone named (`when()`, `z` switches to UTC)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from rich.text import Text

from flagtui.api.models import IntegrationEvent
from flagtui.masking import mask_urls
from flagtui.triage.records import (
    Delivery,
    Failure,
    FailureGroup,
    FailureWindow,
    IntegrationRef,
    Origin,
    labels,
)
from flagtui.triage.source import aware
from flagtui.tui.format import ago, clean, counted, delivery_state, ink, moment, put, when

WINDOWS: dict[str, timedelta | None] = {
    "15m": timedelta(minutes=15),
    "1h": timedelta(hours=1),
    "6h": timedelta(hours=6),
    "24h": timedelta(hours=24),
    "7d": timedelta(days=7),
    "all": None,
}
RELATIVE_FOR = timedelta(days=7)  # older rows say their date instead of "12 days ago"
SPARK = "▁▂▃▄▅▆▇█"


class TimeWindow:
    """The window both triage screens show, chosen on either (like `format.Clock`)."""

    chosen: str | None = None
    """None until someone chooses: then each screen shows its source's default."""

    @staticmethod
    def default(origin: Origin) -> str:
        """24h on an archive. On the live server, all it still has: it keeps only recent
        deliveries anyway (real Unleash: about the newest 100 of the last 2 hours, plus each
        integration's latest), so a shorter window would only hide rows, and the oldest rows
        it kept (each integration's latest) are the ones that say "this failed last week"."""
        return "24h" if origin == "archive" else "all"

    @classmethod
    def name(cls, origin: Origin) -> str:
        return cls.chosen or cls.default(origin)

    @classmethod
    def step(cls, origin: Origin, delta: int) -> str:
        names = list(WINDOWS)
        cls.chosen = names[(names.index(cls.name(origin)) + delta) % len(names)]
        return cls.chosen


def window_since(name: str, now: datetime) -> datetime | None:
    span = WINDOWS[name]
    return None if span is None else now - span


def now_utc() -> datetime:
    return datetime.now(UTC)


def age(value: datetime, now: datetime) -> str:
    """ "4 min ago" for a week, then the date (the preview gives the time, zone named)."""
    elapsed = now - aware(value)
    if elapsed > RELATIVE_FOR:
        return when(value, date_only=True)
    return ago(max(0.0, elapsed.total_seconds()))


def delivery_model(delivery: Delivery) -> IntegrationEvent:
    """The client's model of a delivery, for the screens that show one in full: read from the
    JSON triage keeps of it (as the server sent it, or as the archive stored it)."""
    return IntegrationEvent.model_validate(delivery.wire)


def failure_key(failure: Failure) -> str:
    return f"{failure.integration.id}:{failure.delivery.id}"


def group_key(group: FailureGroup) -> str:
    return f"{group.integration.id}:{group.error_key}"


Names = Mapping[int, str]
"""Integration id -> its label, told apart from the others' (`records.labels`)."""


def integration_label(ref: IntegrationRef, names: Names) -> Text:
    """The label, dimmed with "off" when the integration is disabled."""
    label = clean(names.get(ref.id, ref.label))
    if ref.enabled or ref.deleted:
        return Text(label)
    return Text.assemble((label, "dim"), (" off", "yellow"))


def new_style() -> str:
    """The mark of rows new since the last read."""
    return ink("bold yellow", "bold")


def failure_cells(failure: Failure, now: datetime, new: bool, names: Names) -> list[str | Text]:
    delivery = failure.delivery
    return [
        Text("●" if new else " ", style=new_style()),
        Text(age(delivery.created_at, now), style=new_style() if new else ""),
        integration_label(failure.integration, names),
        delivery_state(delivery.state),
        failure.origin,
        mask_urls(delivery.state_details or ""),
    ]


def group_cells(group: FailureGroup, now: datetime, new: bool, names: Names) -> list[str | Text]:
    return [
        Text("●" if new else " ", style=new_style()),
        integration_label(group.integration, names),
        Text(str(group.count), style=ink("bold red", "bold")),
        age(group.first_seen, now),
        Text(age(group.last_seen, now), style=new_style() if new else ""),
        mask_urls(group.error_key),
    ]


def _moment_and_age(value: datetime, now: datetime) -> str:
    """ "14:02 CET (4 min ago)"; the date too when it is not today; older than a week: no age
    (its date says it)."""
    elapsed = now - aware(value)
    if elapsed > RELATIVE_FOR:
        return moment(value)
    return f"{moment(value)} ({ago(max(0.0, elapsed.total_seconds()))})"


def failure_preview(failure: Failure | None, now: datetime, width: int, names: Names) -> Text:
    """Under the table: the highlighted failure's time (absolute, zone named, and how long
    ago), state, source and event; its integration (each cut at `width`); then its full state
    details and message."""
    if failure is None:
        return Text("")
    delivery = failure.delivery
    head = Text(_moment_and_age(delivery.created_at, now), style="bold")
    head.append(" · ")
    head.append_text(delivery_state(delivery.state))
    head.append(f" · {failure.origin}")
    if delivery.event_type is not None:
        put(head, f" · {delivery.event_type}")
    out = _one_line(head, width)
    out.append_text(_one_line(integration_label(failure.integration, names), width))
    put(out, mask_urls(delivery.state_details or "(no state details)"))
    message = (delivery.details or {}).get("message")
    if message:
        put(out, f" · {mask_urls(str(message))}", style="dim")
    return out


def group_preview(group: FailureGroup | None, now: datetime, width: int, names: Names) -> Text:
    """The highlighted group: how many, first and last seen; its integration (each cut at
    `width`); then an example of its error text as the integration reported it."""
    if group is None:
        return Text("")
    head = Text(counted(group.count, "failure"), style="bold")
    head.append(f" · first {moment(group.first_seen)} · last ")
    head.append(_moment_and_age(group.last_seen, now), style="bold")
    out = _one_line(head, width)
    out.append_text(_one_line(integration_label(group.integration, names), width))
    put(out, mask_urls(group.example or "(no state details)"))
    return out


def _one_line(text: Text, width: int) -> Text:
    """`text` cut to `width` cells with "…", then a line break."""
    text.truncate(max(width, 10), overflow="ellipsis")
    text.append("\n")
    return text


def freshness(window: FailureWindow, now: datetime) -> Text:
    """ "collected until 14:03 CET (14 s ago)": up to when an archive knows the answer; and,
    when it was old, whether the live server completed it or could not be read."""
    until = window.collected_until
    if until is None:
        out = Text("never collected", style="yellow")
    elif window.clock_fault is not None:
        out = Text(f"collected until {moment(until)} ", style="yellow")
        out.append("(later than now: the collector's clock runs ahead)", style="bold red")
    else:
        elapsed = ago(max(0.0, (now - aware(until)).total_seconds()))
        out = Text(f"collected until {moment(until)} ({elapsed})")
    if window.unreached and until is None and window.complete_since is not None:
        # Never collected: the server's answer alone, complete back to where it still lists all.
        before = f" · INCOMPLETE before {moment(window.complete_since)}"
        out.append(before, style=ink("bold red", "bold reverse"))
    elif window.unreached:
        out.append(" · INCOMPLETE: the server no longer lists all since", style="bold red")
    elif not window.complete:
        out.append(" · INCOMPLETE after it: the server could not be read", style="bold red")
    elif window.as_of != until:
        out.append(" + live", style="yellow")
    return out


def source_line(window: FailureWindow, now: datetime, outage: str | None = None) -> Text:
    """Where the rows come from, up to when they are known, what the source may be missing;
    `outage`: why the server could not be connected to (the archive answers), said once."""
    if window.origin == "live":
        return live_reach(window)
    out = Text("archive ")
    out.append_text(freshness(window, now))
    if outage is not None:
        out.append(f" · the server is down: {outage}", style=ink("yellow", "bold"))
    reach = window.covers_since
    if reach is not None and (window.since is None or window.since < reach):
        out.append(f" · since {moment(reach)}")  # said when the window reaches further back
    if window.unreadable_note is not None:
        out.append(f" · {window.unreadable_note}", style="red")
    if not window.gaps:
        out.append(" · no gaps in this window", style="dim")
        return out
    names = labels(window.integrations)
    count = len(window.gaps)
    out.append(
        f" · {counted(count, 'gap')} (deliveries may be missing): ",
        style=ink("red", "bold"),
    )
    newest = sorted(window.gaps, key=lambda gap: gap.end, reverse=True)
    put(
        out,
        "; ".join(
            f"{names.get(gap.integration_id, f'integration #{gap.integration_id}')} "
            f"{span(gap.start, gap.end)}"
            for gap in newest
        ),
    )
    return out


def live_reach(window: FailureWindow) -> Text:
    """How far back the server alone holds every delivery (it forgets): INCOMPLETE when that is
    later than the window's start (`triage.coverage`)."""
    back = window.complete_since
    if window.complete:
        reach = f"since {moment(back)}" if back else "every delivery the server had"
        return Text(f"live · complete {reach} (the server forgets)", style=ink("yellow", "bold"))
    before = f" before {moment(back)}" if back else ""
    return Text(
        f"live · INCOMPLETE{before} (the server forgets)", style=ink("bold red", "bold reverse")
    )


def span(start: datetime, end: datetime) -> str:
    """ "14:02-14:40 CET" (an en dash) when both ends are today, "2026-11-23 14:02-14:40 CET"
    on one other day: the date and the zone said once, so a gap fits on an 80-column line."""
    first, last = moment(start), moment(end)
    zone = last.rsplit(" ", 1)[-1]
    first_time = first.removesuffix(f" {zone}")
    day = when(start, date_only=True)
    if first_time == first or when(end, date_only=True) != day:  # another zone, or day
        return f"{first}–{last}"
    return f"{first_time}–{last.removeprefix(f'{day} ')}"  # today's moments carry no date


def sparkline(counts: list[int] | None, width: int) -> Text:
    """Block characters, one per span, as high as the span's share of the busiest one; a span
    with no failure is blank. `None`: not counted yet."""
    if counts is None:
        return Text("…".ljust(width), style="dim")
    top = max(counts, default=0)
    if not top:
        return Text(" " * len(counts))
    blocks = [
        SPARK[max(0, -(-count * len(SPARK) // top) - 1)] if count else " " for count in counts
    ]
    return Text("".join(blocks), style=ink("red", "bold"))
