"""One audit event in full: who, what, where, and what changed (preData -> data as a coloured
unified diff of pretty-printed JSON, readable at 80 columns). Also renders the event that
triggered an integration delivery."""

from __future__ import annotations

import difflib
import json
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from flagtui.api.models import EventRecord
from flagtui.tui.format import when
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.text import PlainStatic


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
        out.append(line + "\n", style=style)
    return out


def section(out: Text, title: str) -> None:
    out.append(f"\n{title}\n", style="bold underline")


def event_text(event: EventRecord) -> Text:
    """The fields of an event record, then its change (or its data when nothing came before)."""
    out = Text()
    out.append(event.type, style="bold")
    out.append(f"  #{event.id} · {when(event.created_at)}\n")
    fields = [
        ("project", event.project),
        ("feature", event.feature_name),
        ("environment", event.environment),
        ("created by", event.created_by),
        ("tags", ", ".join(f"{t.type}:{t.value}" for t in event.tags or [])),
    ]
    for label, value in fields:
        out.append(f"{label:<12}", style="dim")
        out.append(f"{value or '—'}\n")
    if event.pre_data is not None and event.data is not None:
        section(out, "Change (preData → data)")
        out.append_text(json_diff(event.pre_data, event.data))
    else:
        for title, value in (("data", event.data), ("preData", event.pre_data)):
            if value is not None:
                section(out, title)
                out.append(pretty(value) + "\n")
        if event.data is None and event.pre_data is None:
            out.append("\n(no data)\n", style="dim")
    return out


class EventDetailScreen(AreaScreen):
    AREA = "events"
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="event.back", tooltip="Back to the list"),
        Binding("y", "copy", "Copy id", id="event.copy", tooltip="Copy the event's id"),
    ]

    def __init__(self, event: EventRecord) -> None:
        super().__init__()
        self.event = event

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            yield PlainStatic(event_text(self.event), id="event")

    def on_mount(self) -> None:
        self.query_one("#detail").focus()

    def redraw_times(self) -> None:
        self.query_one("#event", PlainStatic).update(event_text(self.event))

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(str(self.event.id))
        self.notify(f"Copied event id {self.event.id}", timeout=3)
