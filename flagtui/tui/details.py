"""Detail texts shared by several screens: an audit event in full (preData -> data as a coloured
unified diff of pretty-printed JSON, readable at 80 columns), an integration delivery in full
(with the event that triggered it, and on request its change first: the fields it changed,
who, when) and the two-line preview under a deliveries table. URLs in what an integration
reported are masked (flagtui/masking.py) unless revealed."""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from rich.text import Text

from flagtui.api.models import EventRecord, IntegrationEvent
from flagtui.masking import mask_urls, masked_delivery, masked_event
from flagtui.tui.format import clean, delivery_state, put, when


def pretty(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)


def json_diff(before: Any, after: Any) -> Text:
    """Every line of both documents, removed lines red `-`, added lines green `+`."""
    old = pretty(before).splitlines() if before is not None else []
    new = pretty(after).splitlines() if after is not None else []
    out = Text()
    lines = difflib.unified_diff(old, new, lineterm="", n=max(len(old), len(new)))
    for line in list(lines)[2:]:  # skip the ---/+++ file header
        if line.startswith("@@"):
            continue
        style = {"-": "red", "+": "green"}.get(line[:1], "")
        put(out, line + "\n", style=style)
    return out


# [text](url), the text may hold one level of brackets (a project named "[a] b" is linked as
# "[[a] b](url)"); deeper nesting is left as written.
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(https?://[^()\s]*\)")


def plain_summary(summary: str) -> str:
    """Unleash's markdown summary as the sentence it reads as: bold marks dropped, a link
    shown as its text (the URL is the server's web UI, of no use in a terminal)."""
    return _LINK.sub(r"\1", summary).replace("**", "")


def section(out: Text, title: str) -> None:
    put(out, f"\n{title}\n", style="bold underline")


def event_text(event: EventRecord) -> Text:
    """The fields of an event record, then its change (or its data when nothing came before);
    a secret in them masked (`masking.masked_event`)."""
    event = masked_event(event)
    out = Text()
    put(out, event.type, style="bold")
    put(out, f"  #{event.id} · {when(event.created_at)}\n")
    if event.label:
        put(out, f"{event.label}\n", style="bold")
    if event.summary:
        put(out, f"{plain_summary(event.summary)}\n")
    fields = [
        ("project", event.project),
        ("feature", event.feature_name),
        ("environment", event.environment),
        ("created by", event.created_by),
        ("tags", ", ".join(f"{t.type}:{t.value}" for t in event.tags or [])),
    ]
    for label, value in fields:
        put(out, f"{label:<12}", style="dim")
        put(out, f"{value or '—'}\n")
    if event.pre_data is not None and event.data is not None:
        section(out, "Change (preData → data)")
        out.append_text(json_diff(event.pre_data, event.data))
    else:
        for title, value in (("data", event.data), ("preData", event.pre_data)):
            if value is not None:
                section(out, title)
                put(out, pretty(value) + "\n")
        if event.data is None and event.pre_data is None:
            put(out, "\n(no data)\n", style="dim")
    return out


def compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def changed_fields(before: Any, after: Any) -> list[tuple[str, Any, Any]]:
    """(field, before, after) for each top-level field that differs; a value that is not an
    object counts as one field named "value"."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return [] if before == after else [("value", before, after)]
    missing = object()
    fields = sorted(set(before) | set(after))
    pairs = [(f, before.get(f, missing), after.get(f, missing)) for f in fields]
    return [
        (f, None if old is missing else old, None if new is missing else new)
        for f, old, new in pairs
        if old != new
    ]


def change_text(event: EventRecord | None) -> Text:
    """What the triggering change did, in a few lines: which flag, who, when, then each changed
    field `before → after` (the event's preData vs data)."""
    out = Text()
    put(out, "Triggering change", style="bold underline")
    if event is None:
        put(out, "\n(the delivery carries no event)\n", style="dim")
        return out
    event = masked_event(event)
    put(out, f"\n{event.type} #{event.id} · {when(event.created_at)}\n")
    put(out, f"{'by':<12}", style="dim")
    put(out, f"{event.created_by or '—'}\n")
    flag = event.feature_name or "— (names no flag)"
    where = " · ".join(x for x in (event.project, event.environment) if x)
    put(out, f"{'flag':<12}", style="dim")
    put(out, f"{flag}{f' ({where})' if where else ''}\n")
    if event.pre_data is None and event.data is None:
        put(out, "(no data: nothing recorded as changed)\n", style="dim")
        return out
    changes = changed_fields(event.pre_data, event.data)
    if not changes:
        put(out, "(data equals preData: no field changed)\n", style="dim")
    for field, old, new in changes:
        put(out, f"{field:<12}", style="dim")
        put(out, "—" if old is None else compact(old), style="red")
        put(out, " → ")
        put(out, "—" if new is None else compact(new), style="green")
        put(out, "\n")
    return out


def preview_text(delivery: IntegrationEvent | None, integration: str = "") -> Text:
    """Two lines under a deliveries table: the highlighted delivery's full state details."""
    if delivery is None:
        return Text("")
    out = Text(clean(f"{integration} ") if integration else "", style="bold")
    out.append_text(delivery_state(delivery.state))
    put(out, f" {mask_urls(delivery.state_details or '')}")
    message = (delivery.details or {}).get("message")
    if message:
        put(out, f"\n{mask_urls(str(message))}", style="dim")
    return out


def delivery_text(
    delivery: IntegrationEvent, integration: str, *, reveal: bool = False, cause: bool = False
) -> Text:
    """The delivery in full, the event that triggered it included; its secrets masked unless
    `reveal` (the heading says which, when there is any to mask). `cause` puts the triggering
    change first, above the delivery's details (a webhook body may be long)."""
    masked = masked_delivery(delivery)
    if masked == delivery:  # nothing secret in it
        return _delivery_text(delivery, integration, cause=cause)
    note = "secrets shown in full: m masks them\n" if reveal else "secrets masked: m reveals them\n"
    shown = delivery if reveal else masked
    return Text.assemble((note, "dim italic"), _delivery_text(shown, integration, cause=cause))


def _delivery_text(delivery: IntegrationEvent, integration: str, *, cause: bool) -> Text:
    out = Text()
    if cause:
        out.append_text(change_text(delivery.event))
        put(out, "\n")
    put(out, f"Delivery {delivery.id}", style="bold")
    put(out, f" to {integration} · {when(delivery.created_at)} · ")
    out.append_text(delivery_state(delivery.state))
    put(out, f"\n{delivery.state_details or '(no state details)'}\n")
    details = dict(delivery.details or {})
    section(out, "Delivery details")
    if "message" in details:
        put(out, f"message   {details.pop('message')}\n")
    if "channels" in details:
        channels = details.pop("channels")
        shown = ", ".join(channels) if isinstance(channels, list) else str(channels)
        put(out, f"channels  {shown}\n")
    if details:
        put(out, pretty(details) + "\n")
    elif not delivery.details:
        put(out, "—\n")
    section(out, "Triggering event")
    out.append_text(event_text(delivery.event) if delivery.event else Text("—\n"))
    return out
