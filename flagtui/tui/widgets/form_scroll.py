"""A form's scrolling column. Textual scrolls a focused field into view (`Screen.set_focus`);
this keeps the line above the field, its label, in view with it, so Tab and shift+Tab both show
what the field is. Its children must not fill it (a `Vertical` would: use `VerticalGroup`)."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.widget import Widget


class FormScroll(VerticalScroll):
    """Not a Tab stop itself: each field scrolls into view as it is focused, so a stop on the
    column between the last field and the first was a Tab that seemed to do nothing."""

    can_focus = False

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.call_after_refresh(self.reveal, event.widget)

    def reveal(self, field: Widget) -> None:
        if not field.has_focus or not field.region:
            return
        where = field.region.translate(self.scroll_offset - self.content_region.offset)
        self.scroll_to_region(where.grow((1, 0, 0, 0)), animate=False)
