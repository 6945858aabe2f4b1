"""Textual's Select, made safe to mount while the app quits.

A Select builds its parts (the current value, the overlay) in `compose` and fills them when its
Mount is handled. When the app quits while a Select is being mounted (`q` as a screen mounts its
filters), Textual may handle that Mount after the Select was taken off the screen, its parts
gone; Textual's Select then asks for a part and the app ends with a traceback and exit 1
(NoMatches). Here a Select no longer on the screen skips that set-up: nobody will see it.

Every Select of flagtui is this one (tests/tui/test_quit_while_mounting.py checks it, and that
Textual's own still fails: when it no longer does, delete this module)."""

from __future__ import annotations

from textual import events
from textual.widgets import Select as TextualSelect
from textual.widgets._select import SelectType  # the type variable, not exported


class Select(TextualSelect[SelectType]):
    """Textual dispatches Mount to each class's `_on_mount`, subclass first."""

    def _on_mount(self, event: events.Mount) -> None:
        if not self.is_attached:  # Textual's own `_on_mount` (after this one) queries its parts
            event.prevent_default()
